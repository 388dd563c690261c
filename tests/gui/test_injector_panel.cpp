// The message injector: a Portals put (and get) composed in the form, sent into a
// 2-node SeaStar running the Portals firmware, its events listed from both event
// queues, and the delivered bytes checked against what was sent; a system without
// Portals and bad fields are said, not faked.
#include <memory>

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include "gui_test_support.hpp"
#include "model/system_snapshot.hpp"
#include "views/injector_panel.hpp"
#include "views/main_window.hpp"
#include "views/spec_picker.hpp"
#include "views/system_view.hpp"

using namespace niclab;
using namespace niclab::gui;
using namespace niclab::gui::testing;

class InjectorPanelTest : public QObject {
    Q_OBJECT

    std::unique_ptr<MainWindow> window_;
    QTemporaryDir dir_;
    InjectorPanel* panel() { return window_->injector(); }
    const SystemSnapshot& shown() { return window_->system_view()->shown(); }

    void build(const QByteArray& spec) { QVERIFY(build_spec(*window_, dir_, spec)); }
    template <class W> W* field(const char* name) {
        W* w = panel()->findChild<W*>(name);
        if (!w) qFatal("no field %s", name);
        return w;
    }
    // Clicks a send button and waits for the outcome.
    void click_send(const char* button) { QVERIFY(send_and_wait(*window_, field<QPushButton>(button))); }
    void send() { click_send("send"); }
    void send_transport() { click_send("sendTransport"); }
    QStringList event_types(const char* side) {
        QStringList out;
        for (int r = 0; r < panel()->events()->rowCount(); ++r)
            if (panel()->events()->item(r, 2)->text() == side) out << panel()->events()->item(r, 3)->text();
        return out;
    }

private slots:
    void init() { window_ = open_window(&MainWindow::injector); }
    void cleanup() { close_window(window_); }

    void a_put_delivers_its_bytes_and_its_events() {
        build(R"({"preset": "seastar", "nodes": 2, "firmware": "portals"})");
        field<QComboBox>("portalsOp")->setCurrentText("put");
        field<QSpinBox>("initiator")->setValue(0);
        field<QSpinBox>("target")->setValue(1);
        field<QSpinBox>("ptIndex")->setValue(4);
        field<QLineEdit>("matchBits")->setText("0x17");
        field<QSpinBox>("mdLength")->setValue(300);
        field<QSpinBox>("remoteOffset")->setValue(16);
        field<QLineEdit>("pattern")->setText("SeaStar!");
        send();
        QVERIFY2(!error_dialog(), "an error dialog opened");
        const auto& o = *shown().injection;
        QVERIFY(o.complete);
        QCOMPARE(o.bytes_expected, uint64_t(300));
        QCOMPARE(o.bytes_matching, uint64_t(300));
        QVERIFY(panel()->check()->text().startsWith("300 of 300 bytes arrived as sent"));
        QCOMPARE(event_types("initiator"), (QStringList{"SEND_START", "SEND_END", "ACK"}));
        // The target MD had a threshold of one: it unlinks after the put (PTL_EVENT_UNLINK).
        QCOMPARE(event_types("target"), (QStringList{"PUT_START", "PUT_END", "UNLINK"}));
        // Times in order, after the send; the target's PUT_END says what it received where.
        for (size_t i = 1; i < o.events.size(); ++i) QVERIFY(o.events[i - 1].time <= o.events[i].time);
        for (const auto& e : o.events)
            if (e.type == "PUT_END") {
                QCOMPARE(e.mlength, uint64_t(300));
                QCOMPARE(e.offset, uint64_t(16));
                QCOMPARE(e.match_bits, uint64_t(0x17));
                QCOMPARE(e.node, size_t(1));
            }
        screenshot(window_.get(), "messages");
    }

    void a_get_fetches_the_targets_bytes() {
        build(R"({"preset": "seastar", "nodes": 2, "firmware": "portals"})");
        field<QComboBox>("portalsOp")->setCurrentText("get");
        field<QSpinBox>("initiator")->setValue(1);
        field<QSpinBox>("target")->setValue(0);
        field<QSpinBox>("mdLength")->setValue(5000);
        field<QLineEdit>("pattern")->setText("");
        send();
        const auto& o = *shown().injection;
        QVERIFY(o.complete);
        QCOMPARE(o.bytes_matching, uint64_t(5000));
        QVERIFY(event_types("initiator").contains("REPLY_END"));
        QVERIFY(event_types("target").contains("GET_END"));
    }

    void unmatched_bits_leave_the_bytes_undelivered() {
        // The target listens for other bits: it drops the put, the initiator still
        // sends it, and the check says no byte arrived.
        build(R"({"preset": "seastar", "nodes": 2, "firmware": "portals"})");
        field<QLineEdit>("matchBits")->setText("0x17");
        field<QLineEdit>("targetBits")->setText("0x18");
        field<QCheckBox>("ack")->setChecked(false);
        send();
        const auto& o = *shown().injection;
        QVERIFY(!o.complete);
        QCOMPARE(o.bytes_matching, uint64_t(0));
        QVERIFY(event_types("initiator").contains("SEND_END"));
        QVERIFY(event_types("target").isEmpty());
        QVERIFY(panel()->check()->text().startsWith("0 of 64 bytes"));
    }

    void a_bad_field_is_a_dialog() {
        build(R"({"preset": "seastar", "nodes": 2, "firmware": "portals"})");
        field<QLineEdit>("matchBits")->setText("0xZZ");
        QTest::mouseClick(field<QPushButton>("send"), Qt::LeftButton);
        QTRY_VERIFY(error_dialog());
        QVERIFY(error_dialog()->text().contains("match bits"));
        close_dialogs();
        field<QLineEdit>("matchBits")->setText("1");
        field<QSpinBox>("target")->setValue(9);
        send();
        QTRY_VERIFY(error_dialog());
        QVERIFY2(error_dialog()->text().contains("target node 9"), qPrintable(error_dialog()->text()));
    }

    void a_system_without_portals_says_so_and_sends_through_its_own_library() {
        build(R"({"preset": "startx", "nodes": 2})");
        QTRY_VERIFY(panel()->findChild<QLabel*>("injectorUnsupported")->isVisible());
        QVERIFY(panel()->findChild<QLabel*>("injectorUnsupported")->text().contains("startx"));
        QVERIFY(!field<QPushButton>("send")->isEnabled());  // the Portals form is disabled
        // A JAM message of 64 bytes, node 1 to node 0, checked on arrival.
        QTRY_VERIFY(field<QComboBox>("transport")->count() > 0);
        field<QSpinBox>("sender")->setValue(1);
        field<QSpinBox>("receiver")->setValue(0);
        field<QSpinBox>("messageBytes")->setValue(64);
        field<QSpinBox>("tag")->setValue(5);
        send_transport();
        QVERIFY2(!error_dialog(), error_dialog() ? qPrintable(error_dialog()->text()) : "");
        const auto& o = *shown().injection;
        QVERIFY(o.complete);
        QCOMPARE(o.bytes_matching, uint64_t(64));
        QCOMPARE(event_types("sender"), (QStringList{"SEND", "SEND_DONE (buffer free)"}));
        QCOMPARE(event_types("receiver"), (QStringList{"RECV (checked)"}));
        QCOMPARE(o.events.back().match_bits, uint64_t(5));  // the tag
        QVERIFY(o.events.back().time > o.events.front().time);
        screenshot(window_.get(), "messages-startx");
    }

    void every_system_sends_a_transport_message() {
        for (const char* spec : {R"({"preset": "dsnic", "nodes": 2})", R"({"preset": "t9000-20", "nodes": 2})",
                                 R"({"preset": "seastar", "nodes": 2, "firmware": "portals"})"}) {
            build(spec);
            QTRY_VERIFY(field<QComboBox>("transport")->count() > 0);
            field<QSpinBox>("sender")->setValue(0);
            field<QSpinBox>("receiver")->setValue(1);
            field<QSpinBox>("messageBytes")->setValue(256);
            send_transport();
            QVERIFY2(!error_dialog(), error_dialog() ? qPrintable(error_dialog()->text()) : spec);
            QVERIFY2(shown().injection->complete, spec);
            QCOMPARE(shown().injection->bytes_matching, uint64_t(256));
        }
        // A message to itself is a dialog naming the fields.
        field<QSpinBox>("receiver")->setValue(0);
        send_transport();
        QTRY_VERIFY(error_dialog());
        QVERIFY2(error_dialog()->text().contains("sender and receiver"), qPrintable(error_dialog()->text()));
    }
};

QTEST_MAIN(InjectorPanelTest)
#include "test_injector_panel.moc"
