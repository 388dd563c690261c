// The message injector's GRIM form, clicked through on real 2- and 4-node GRIM clusters
// (LANai 9, the grim firmware): an active message whose handler ran with the bytes sent,
// RM-V writes whose notification word changed (through the NI's translation cache and
// its static entries), an RM-P write, an RM read whose reply landed, a multicast that
// ran its handler on every member (and on the new members after the group changed), the
// NI counters each moved, a refused write and a message given up shown as GRIM's
// errors, bad fields naming themselves, and a system that is not GRIM saying so.
#include <memory>

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
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

class GrimInjectorTest : public QObject {
    Q_OBJECT

    std::unique_ptr<MainWindow> window_;
    QTemporaryDir dir_;
    InjectorPanel* panel() { return window_->injector(); }
    const SystemSnapshot& shown() { return window_->system_view()->shown(); }
    const InjectionOutcome& outcome() { return *shown().injection; }

    void build(const QByteArray& spec) { QVERIFY(build_spec(*window_, dir_, spec)); }
    void build_grim(int nodes) { build(QByteArray(R"({"preset": "grim-lanai9", "nodes": )") + QByteArray::number(nodes) + "}"); }
    template <class W> W* field(const char* name) {
        W* w = panel()->findChild<W*>(name);
        if (!w) qFatal("no field %s", name);
        return w;
    }
    void op(const char* name) { field<QComboBox>("grimOp")->setCurrentText(name); }
    // Clicks Send and waits for the outcome (or the error).
    void send() { QVERIFY(send_and_wait(*window_, field<QPushButton>("grimSend"))); }
    void send_ok() {
        send();
        QVERIFY2(!error_dialog(), error_dialog() ? qPrintable(error_dialog()->text()) : "");
        QVERIFY2(shown().injection, "no outcome");
        QVERIFY2(outcome().complete, outcome().summary.c_str());
    }
    // The events table's rows of `node` whose event starts with `prefix`.
    QList<int> rows(size_t node, const QString& prefix) {
        QList<int> out;
        QTableWidget* t = panel()->events();
        for (int r = 0; r < t->rowCount(); ++r)
            if (t->item(r, 1)->text() == QString::number(node) && t->item(r, 3)->text().startsWith(prefix)) out << r;
        return out;
    }
    double time_of(int row) { return panel()->events()->item(row, 0)->text().toDouble(); }
    // How much a counter of a node moved, by the outcome and as the counters table shows it.
    uint64_t moved(size_t node, const std::string& name) {
        for (const auto& c : outcome().counters)
            if (c.node == node && c.name == name) return c.after - c.before;
        qFatal("no counter %s of node %zu", name.c_str(), node);
    }
    QString shown_counter(size_t node, const QString& name) {
        QTableWidget* t = panel()->counters();
        for (int r = 0; r < t->rowCount(); ++r)
            for (int c = 0; c < t->columnCount(); ++c)
                if (t->verticalHeaderItem(r)->text() == name && t->horizontalHeaderItem(c)->text() == QString("node %1").arg(node))
                    return t->item(r, c)->text();
        return {};
    }

private slots:
    void init() { window_ = open_window(&MainWindow::injector); }
    void cleanup() { close_window(window_); }

    void an_active_message_runs_its_handler_with_the_bytes_sent() {
        build_grim(2);
        QTRY_VERIFY(!field<QLabel>("grimUnsupported")->isVisible());
        op("active message");
        field<QSpinBox>("grimSender")->setValue(1);
        field<QSpinBox>("grimTarget")->setValue(0);
        field<QLineEdit>("grimHandler")->setText("gui.echo");
        field<QLineEdit>("grimArgs")->setText("7, 8 9 0x10");
        field<QSpinBox>("grimBytes")->setValue(3000);
        field<QLineEdit>("grimPattern")->setText("GRIM!");
        send_ok();
        QCOMPARE(outcome().bytes_expected, uint64_t(3000));
        QCOMPARE(outcome().bytes_matching, uint64_t(3000));
        QVERIFY(panel()->check()->text().startsWith("3000 of 3000 bytes arrived as sent"));
        // Sent by node 1, the handler ran on node 0 with the arguments, later.
        const auto sent = rows(1, "active message sent"), ran = rows(0, "handler 'gui.echo' ran (from node 1, args 7 8 9 16)");
        QCOMPARE(sent.size(), 1);
        QCOMPARE(ran.size(), 1);
        QVERIFY(time_of(ran[0]) > time_of(sent[0]));
        // The NIs: node 0 delivered one AM and ACKed what it received; node 1 got the ACKs.
        QCOMPARE(moved(0, "grim.am_delivered"), uint64_t(1));
        QVERIFY(moved(0, "grim.acks_sent") >= 1);
        QCOMPARE(moved(1, "grim.acks_received"), moved(0, "grim.acks_sent"));
        QCOMPARE(moved(1, "grim.retransmits"), uint64_t(0));
        QVERIFY(panel()->counters()->isVisible());
        QCOMPARE(shown_counter(0, "grim.am_delivered"), QString("+1"));
        QCOMPARE(shown_counter(1, "grim.nacks_received"), QString("+0"));  // shown even unmoved
    }

    void rm_v_writes_change_the_notification_word_through_the_translation_cache() {
        build_grim(2);
        op("RM-V write");
        field<QSpinBox>("grimSender")->setValue(0);
        field<QSpinBox>("grimTarget")->setValue(1);
        field<QSpinBox>("grimBytes")->setValue(9000);
        field<QSpinBox>("grimOffset")->setValue(100);
        field<QComboBox>("grimMemory")->setCurrentIndex(1);  // pinned pages: a miss, the driver fills it
        field<QLineEdit>("grimNotify")->setText("0x55");
        send_ok();
        QCOMPARE(outcome().bytes_matching, uint64_t(9000));
        const auto word = rows(1, "notification word = 85");
        QCOMPARE(word.size(), 1);
        QVERIFY(time_of(word[0]) > time_of(rows(0, "RM-V write sent")[0]));
        QCOMPARE(moved(1, "grim.xlate_misses"), uint64_t(1));
        QCOMPARE(moved(1, "driver.xlate_interrupts"), uint64_t(1));
        QCOMPARE(moved(1, "grim.rm_delivered"), uint64_t(1));
        // Into contiguous memory: the static entries answer, no interrupt.
        field<QComboBox>("grimMemory")->setCurrentIndex(0);
        field<QLineEdit>("grimNotify")->setText("86");
        field<QLineEdit>("grimPattern")->setText("");
        send_ok();
        QCOMPARE(outcome().bytes_matching, uint64_t(9000));
        QCOMPARE(rows(1, "notification word = 86").size(), 1);
        QCOMPARE(moved(1, "grim.xlate_misses"), uint64_t(0));
        QVERIFY(moved(1, "grim.xlate_hits") >= 1);
        QCOMPARE(moved(1, "driver.xlate_interrupts"), uint64_t(0));
        // RM-P: by physical address, no translation at all.
        op("RM-P write");
        field<QLineEdit>("grimNotify")->setText("87");
        send_ok();
        QCOMPARE(outcome().bytes_matching, uint64_t(9000));
        QCOMPARE(rows(1, "notification word = 87").size(), 1);
        QCOMPARE(moved(1, "grim.xlate_hits"), uint64_t(0));
        QCOMPARE(moved(1, "grim.rm_delivered"), uint64_t(1));
    }

    void an_rm_read_brings_the_remote_bytes_back() {
        build_grim(4);
        op("RM read");
        field<QSpinBox>("grimSender")->setValue(2);
        field<QSpinBox>("grimTarget")->setValue(3);
        field<QSpinBox>("grimBytes")->setValue(70000);  // more than GRIM's MTU: two reads
        field<QSpinBox>("grimOffset")->setValue(8);
        field<QLineEdit>("grimPattern")->setText("remote memory");
        send_ok();
        QCOMPARE(outcome().bytes_expected, uint64_t(70000));
        QCOMPARE(outcome().bytes_matching, uint64_t(70000));
        const auto reply = rows(2, "reply arrived: lock word zeroed");
        QCOMPARE(reply.size(), 1);
        QVERIFY(time_of(reply[0]) > time_of(rows(2, "RM read sent")[0]));
        QCOMPARE(moved(3, "grim.rm_reads_served"), uint64_t(2));
        QCOMPARE(moved(2, "grim.rm_read_replies"), uint64_t(2));
    }

    void a_multicast_runs_its_handler_on_every_member() {
        build_grim(4);
        op("multicast");
        field<QSpinBox>("grimSender")->setValue(0);
        field<QLineEdit>("grimMembers")->setText("1, 2, 3");
        field<QLineEdit>("grimHandler")->setText("gui.mc");
        field<QSpinBox>("grimBytes")->setValue(1000);
        send_ok();
        QCOMPARE(outcome().bytes_expected, uint64_t(3000));
        QCOMPARE(outcome().bytes_matching, uint64_t(3000));
        const double sent = time_of(rows(0, "multicast sent")[0]);
        for (size_t n : {1, 2, 3}) {
            QCOMPARE(rows(n, "subscribed to 'gui.group'").size(), 1);
            const auto ran = rows(n, "handler 'gui.mc' ran (from node 0");
            QCOMPARE(ran.size(), 1);
            QVERIFY(time_of(ran[0]) > sent);
            QCOMPARE(moved(n, "grim.mc_delivered"), uint64_t(1));
        }
        QCOMPARE(rows(0, "handler").size(), 0);  // the sender is no member
        screenshot(window_.get(), "messages-grim");
        // A new group: node 0 joins, nodes 1 and 3 leave; only 0 and 2 run the handler.
        field<QLineEdit>("grimMembers")->setText("0 2");
        send_ok();
        QCOMPARE(outcome().bytes_expected, uint64_t(2000));
        QCOMPARE(outcome().bytes_matching, uint64_t(2000));
        QCOMPARE(rows(0, "subscribed to 'gui.group'").size(), 1);
        QCOMPARE(rows(1, "left 'gui.group'").size(), 1);
        QCOMPARE(rows(3, "left 'gui.group'").size(), 1);
        QCOMPARE(rows(0, "handler 'gui.mc' ran").size(), 1);
        QCOMPARE(rows(2, "handler 'gui.mc' ran").size(), 1);
        QCOMPARE(rows(1, "handler").size() + rows(3, "handler").size(), 0);
    }

    void a_refused_write_is_grims_error_not_a_crash() {
        // An RM-V write to memory node 1 never registered: its NI refuses it, node 0's
        // library raises MemoryError at its next poll; the dialog says so.
        build_grim(2);
        op("RM-V write");
        field<QComboBox>("grimMemory")->setCurrentIndex(2);
        send();
        QTRY_VERIFY(error_dialog());
        QVERIFY2(error_dialog()->text().contains("is not registered memory of node 1"), qPrintable(error_dialog()->text()));
        QVERIFY(!outcome().complete);
        QCOMPARE(outcome().bytes_matching, uint64_t(0));
        QCOMPARE(moved(1, "grim.xlate_errors"), uint64_t(1));
        close_dialogs();
        // The cluster is fine: the next write lands.
        field<QComboBox>("grimMemory")->setCurrentIndex(0);
        send_ok();
        QCOMPARE(outcome().bytes_matching, uint64_t(64));
    }

    void a_message_nobody_answers_is_given_up_and_said() {
        // Every packet into node 1 is corrupted: node 0's NI resends three times, gives
        // the AM up, and node 0's library raises DeliveryError; the dialog says so and
        // the counters show the resends.
        build(R"({"preset": "grim-lanai9", "nodes": 2, "set": {"net.bit_errors_per_1e15": 10000000000000,
                  "grim.resend_timeout_us": 200, "grim.resend_limit": 3}})");
        op("active message");
        send();
        QTRY_VERIFY(error_dialog());
        QVERIFY2(error_dialog()->text().contains("active message to node 1 was given up"), qPrintable(error_dialog()->text()));
        QVERIFY(!outcome().complete);
        QCOMPARE(outcome().bytes_matching, uint64_t(0));
        QCOMPARE(rows(1, "handler").size(), 0);
        QCOMPARE(moved(0, "grim.retransmits"), uint64_t(3));
        QCOMPARE(moved(0, "grim.undeliverable"), uint64_t(1));
        QCOMPARE(moved(1, "grim.crc_drops"), uint64_t(4));
        QCOMPARE(shown_counter(0, "grim.retransmits"), QString("+3"));
    }

    void a_bad_field_is_a_dialog_naming_it() {
        build_grim(4);
        // The form refuses what it cannot read; the model (on the worker) what does not
        // fit the cluster: either way a dialog naming the field.
        auto expect_dialog = [&](const char* words) {
            QTest::mouseClick(field<QPushButton>("grimSend"), Qt::LeftButton);
            QTRY_VERIFY_WITH_TIMEOUT(error_dialog(), 120000);
            QVERIFY2(error_dialog()->text().contains(words), qPrintable(error_dialog()->text()));
            close_dialogs();
            QTRY_VERIFY(field<QPushButton>("grimSend")->isEnabled());
        };
        op("active message");
        field<QLineEdit>("grimArgs")->setText("1 two");
        expect_dialog("handler arguments");
        field<QLineEdit>("grimArgs")->setText("1 2 3 4 5");
        expect_dialog("handler arguments");
        field<QLineEdit>("grimArgs")->setText("1");
        field<QSpinBox>("grimBytes")->setValue(70000);
        expect_dialog("payload size 70000");
        field<QSpinBox>("grimBytes")->setValue(64);
        field<QSpinBox>("grimTarget")->setValue(0);
        expect_dialog("target node 0");
        op("multicast");
        field<QLineEdit>("grimMembers")->setText("1, 9");
        expect_dialog("member node 9");
        op("RM-V write");
        field<QLineEdit>("grimNotify")->setText("0x1FFFFFFFF");
        expect_dialog("notification value");
    }

    void a_system_that_is_not_grim_says_so() {
        build(R"({"preset": "seastar", "nodes": 2, "firmware": "portals"})");
        QTRY_VERIFY(field<QLabel>("grimUnsupported")->isVisible());
        QVERIFY2(field<QLabel>("grimUnsupported")->text().contains("is not GRIM"), qPrintable(field<QLabel>("grimUnsupported")->text()));
        QVERIFY(!field<QPushButton>("grimSend")->isEnabled());
        QVERIFY(!field<QPushButton>("grimSend")->isVisible());  // the reason in place of the form
    }
};

QTEST_MAIN(GrimInjectorTest)
#include "test_grim_injector.moc"
