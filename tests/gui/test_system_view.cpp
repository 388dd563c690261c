// The system view: a cluster is built from the spec picker, stepped and run by
// simulated time on the worker, paused, and drawn with each node's state and counters;
// a faulting firmware, a bad spec and a missing file are dialogs naming what is wrong.
#include <memory>

#include <QDoubleSpinBox>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QTabWidget>
#include <QTableView>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>

#include "gui_test_support.hpp"
#include "model/system_snapshot.hpp"
#include "views/main_window.hpp"
#include "views/spec_picker.hpp"
#include "views/system_view.hpp"
#include "views/source_view.hpp"
#include "views/topology_scene.hpp"
#include "worker/system_worker.hpp"

using namespace niclab;
using namespace niclab::gui;
using namespace niclab::gui::testing;

class SystemViewTest : public QObject {
    Q_OBJECT

    std::unique_ptr<MainWindow> window_;
    QTemporaryDir dir_;
    SystemView* view() { return window_->system_view(); }
    const SystemSnapshot& shown() { return view()->shown(); }

    void use_spec(const QByteArray& json) { window_->spec()->set_spec_file(write_file(dir_, "spec.json", json)); }
    void click(const char* name) { QTest::mouseClick(view()->findChild<QPushButton*>(name), Qt::LeftButton); }
    // Builds and waits until the worker reports the cluster (or that it failed).
    void build() {
        click("build");
        QTRY_VERIFY_WITH_TIMEOUT(shown().phase != SystemSnapshot::Phase::building &&
                                     shown().phase != SystemSnapshot::Phase::empty,
                                 120000);
    }

private slots:
    void init() { window_ = open_window(&MainWindow::system_view); }
    void cleanup() { close_window(window_); }

    void builds_the_picked_preset_and_draws_its_nodes() {
        window_->spec()->set_preset("seastar");
        window_->spec()->set_nodes(4);
        build();
        QCOMPARE(shown().phase, SystemSnapshot::Phase::paused);
        QCOMPARE(shown().nodes.size(), size_t(4));
        for (size_t n = 0; n < 4; ++n) {
            QVERIFY(shown().nodes[n].state != NodeState::faulted);
            QVERIFY(shown().nodes[n].counter("core.instructions") > 0);  // it booted
            QVERIFY2(view()->scene()->node_label(n).contains(QString("node %1").arg(n)), "no node label");
            QCOMPARE(view()->scene()->node_colour(n), state_colour(shown().nodes[n].state));
        }
        QVERIFY(!shown().cables.empty());
        QVERIFY(window_->sim_status()->text().contains("simulated time"));
        // Tooltips are written from the snapshot when asked: a node's counters, a cable's use.
        const QString tip = view()->scene()->tooltip_at(view()->scene()->node_centre(1));
        QVERIFY2(tip.contains(QString("core.instructions = %1").arg(shown().nodes[1].counter("core.instructions"))),
                 qPrintable(tip));
        QVERIFY(view()->scene()->tooltip_at(QPointF(1e7, 1e7)).isEmpty());
        // The counters table: a state row, then a row per counter, a column per node.
        auto* table = view()->findChild<QTableView*>("counters")->model();
        QCOMPARE(table->columnCount(), 4);
        QCOMPARE(table->headerData(0, Qt::Vertical).toString(), QString("state"));
        QCOMPARE(table->data(table->index(0, 2)).toString(), QString(to_string(shown().nodes[2].state)));
        int instructions = -1;
        for (int r = 1; r < table->rowCount(); ++r)
            if (table->headerData(r, Qt::Vertical).toString() == "core.instructions") instructions = r;
        QVERIFY(instructions > 0);
        QCOMPARE(table->data(table->index(instructions, 3)).toString(),
                 QString::number(shown().nodes[3].counter("core.instructions")));
        screenshot(window_.get(), "system");
    }

    // A node's label is written when painted, from the snapshot shown, and left out where
    // it is too small to read: inside node 0's box, at full size some pixels are text, at
    // a fifth of that every pixel is the box's fill.
    void labels_are_painted_where_they_can_be_read() {
        window_->spec()->set_preset("seastar");
        window_->spec()->set_nodes(4);
        build();
        TopologyScene* scene = view()->scene();
        const QPointF centre = scene->node_centre(0);
        const QRgb fill = scene->node_colour(0).rgb();
        auto pixels_not_fill = [&](double scale) {
            const QRectF box(centre.x() - 50, centre.y() - 30, 100, 60);  // inside the 124 x 88 box
            QImage image((box.size() * scale).toSize(), QImage::Format_RGB32);
            image.fill(Qt::white);
            QPainter painter(&image);
            scene->render(&painter, image.rect(), box);
            painter.end();
            int other = 0;
            for (int y = 0; y < image.height(); ++y)
                for (int x = 0; x < image.width(); ++x) other += image.pixel(x, y) != fill;
            return other;
        };
        QVERIFY2(pixels_not_fill(1.0) > 20, "no label text at full size");
        QCOMPARE(pixels_not_fill(0.2), 0);
    }

    void step_advances_simulated_time_by_the_step() {
        use_spec(R"({"preset": "seastar", "nodes": 2, "firmware": "heartbeat"})");
        build();
        QCOMPARE(shown().phase, SystemSnapshot::Phase::paused);
        const Time before = shown().now;
        view()->findChild<QDoubleSpinBox*>("stepUs")->setValue(50);
        click("step");
        QTRY_VERIFY_WITH_TIMEOUT(shown().now >= before + Time::us(50) && shown().phase == SystemSnapshot::Phase::paused,
                                 120000);
        // One step, not more: slices stop at the step's end (heartbeats wake every 10 us).
        QVERIFY(shown().now < before + Time::us(50) + SystemWorker::kSlice);
        QVERIFY(shown().nodes[0].counter("core.interrupts_taken") + shown().nodes[0].counter("core.instructions") > 0);
    }

    void run_then_pause_stops_the_clock() {
        use_spec(R"({"preset": "seastar", "nodes": 2, "firmware": "counter"})");
        build();
        const uint64_t booted = shown().nodes[0].counter("core.instructions");
        click("runSystem");
        QTRY_VERIFY_WITH_TIMEOUT(shown().now > Time::us(100), 120000);
        click("pause");
        QTRY_VERIFY_WITH_TIMEOUT(shown().phase != SystemSnapshot::Phase::running, 120000);
        const Time paused = shown().now;
        QTest::qWait(300);
        view()->refresh();
        QCOMPARE(shown().now, paused);
        // The counter firmware sleeps in wfi between its timer ticks, and counts on.
        QVERIFY(shown().nodes[0].state == NodeState::asleep || shown().nodes[0].state == NodeState::running);
        QVERIFY(shown().nodes[0].counter("core.instructions") > booted);
        QVERIFY(window_->sim_status()->text().contains("speed"));
    }

    void a_firmware_fault_is_a_dialog_and_a_red_node() {
        use_spec(R"({"preset": "seastar", "nodes": 2, "firmware": "fault_load"})");
        click("build");
        QTRY_VERIFY_WITH_TIMEOUT(shown().phase != SystemSnapshot::Phase::building, 120000);
        if (shown().phase == SystemSnapshot::Phase::paused && !error_dialog()) {  // booted: the fault comes as it runs
            click("runSystem");
            QTRY_VERIFY_WITH_TIMEOUT(error_dialog() != nullptr || shown().phase == SystemSnapshot::Phase::idle, 120000);
        }
        QVERIFY2(error_dialog(), "no dialog for the fault");
        const QString text = error_dialog()->text();
        QVERIFY2(text.contains("read_unopened_window") && text.contains("fault_load.c:"), qPrintable(text));
        if (!shown().nodes.empty()) {
            QCOMPARE(shown().nodes[0].state, NodeState::faulted);
            QCOMPARE(view()->scene()->node_colour(0), state_colour(NodeState::faulted));
            // The dialog opens the source at the faulting line.
            auto* show = error_dialog()->findChild<QPushButton*>("showSource");
            QVERIFY2(show, "no Show source button");
            QTest::mouseClick(show, Qt::LeftButton);
            QDialog* source = nullptr;
            QTRY_VERIFY_WITH_TIMEOUT((source = window_->findChild<QDialog*>("sourceDialog")) != nullptr, 30000);
            auto* code = source->findChild<SourceView*>();
            QVERIFY(code->path().endsWith("fault_load.c"));
            QCOMPARE(code->line(), shown().nodes[0].fault_line);
            QVERIFY2(code->textCursor().block().text().contains("UNOPENED_HOST_ADDR"),
                     qPrintable(code->textCursor().block().text()));
            screenshot(source, "fault-source");
            source->close();
        }
        screenshot(window_.get(), "system-fault");
    }

    void a_watchdog_fault_on_a_stuck_firmware_is_reported_once_per_node() {
        use_spec(R"({"preset": "seastar", "nodes": 2, "firmware": "spin"})");
        build();
        click("runSystem");
        QTRY_VERIFY_WITH_TIMEOUT(error_dialog() != nullptr, 120000);
        QTRY_VERIFY_WITH_TIMEOUT(shown().phase != SystemSnapshot::Phase::running, 120000);
        int dialogs = 0;
        while (error_dialog()) {
            ++dialogs;
            close_dialogs();
            view()->refresh();
        }
        int faulted = 0;
        for (const auto& n : shown().nodes) faulted += n.state == NodeState::faulted;
        QVERIFY(faulted >= 1);
        QVERIFY(dialogs >= 1 && dialogs <= faulted);
    }

    void firmware_loads_on_the_chosen_nodes_with_a_size_report() {
        window_->spec()->set_preset("seastar");
        window_->spec()->set_nodes(2);
        build();
        QCOMPARE(shown().nodes[1].firmware, std::string("portals"));
        view()->findChild<QLineEdit*>("firmwareImage")->setText("hello");
        view()->findChild<QLineEdit*>("loadNodes")->setText("1");
        const uint64_t before = shown().notice_id;
        click("load");
        QTRY_VERIFY_WITH_TIMEOUT(shown().notice_id != before, 120000);
        QVERIFY(error_dialog() == nullptr);
        QCOMPARE(shown().nodes[0].firmware, std::string("portals"));
        QCOMPARE(shown().nodes[1].firmware, std::string("hello"));
        QVERIFY(shown().nodes[1].sram_used > 0 && shown().nodes[1].sram_used < shown().nodes[1].sram_size);
        const QString notice = view()->findChild<QLabel*>("notice")->text();
        QVERIFY2(notice.contains("node 1: hello") && notice.contains(QString("%1 of %2 B of SRAM")
                                                                         .arg(shown().nodes[1].sram_used)
                                                                         .arg(shown().nodes[1].sram_size)),
                 qPrintable(notice));
    }

    void a_reload_that_faults_is_a_dialog_naming_the_fault() {
        window_->spec()->set_nodes(2);
        build();
        view()->findChild<QLineEdit*>("firmwareImage")->setText("fault_load");
        view()->findChild<QLineEdit*>("loadNodes")->setText("0");
        click("load");
        QTRY_VERIFY_WITH_TIMEOUT(error_dialog() != nullptr || shown().nodes[0].firmware == "fault_load", 30000);
        if (!error_dialog()) {  // booted: it faults as it runs
            click("runSystem");
            QTRY_VERIFY_WITH_TIMEOUT(error_dialog() != nullptr, 30000);
        }
        QVERIFY2(error_dialog()->text().contains("read_unopened_window"), qPrintable(error_dialog()->text()));
    }

    void a_bad_image_is_a_dialog_naming_it() {
        build();
        view()->findChild<QLineEdit*>("firmwareImage")->setText("/nonexistent/nic.elf");
        click("load");
        QVERIFY(error_dialog());
        QVERIFY2(error_dialog()->text().contains("/nonexistent/nic.elf"), qPrintable(error_dialog()->text()));
    }

    // The topology field takes a kind with its keys, as the command line's --topology does:
    // a line of 8 typed there is the network a spec file's topology object builds.
    void a_topology_typed_with_its_keys_builds_that_network() {
        window_->spec()->set_preset("seastar");
        window_->spec()->set_nodes(8);
        build();
        const size_t cube = shown().cables.size();  // the SeaStar's default for 8: a 2x2x2 mesh
        window_->spec()->set_topology("mesh:dims=8x1x1");
        build();
        QCOMPARE(shown().phase, SystemSnapshot::Phase::paused);
        QCOMPARE(shown().routers, 8u);
        const size_t typed = shown().cables.size();
        QVERIFY2(typed != cube, "the typed line built the default mesh");
        use_spec(R"({"preset": "seastar", "nodes": 8, "topology": {"kind": "mesh", "dims": [8, 1, 1]}})");
        build();
        QCOMPARE(shown().cables.size(), typed);
    }

    // Red Storm's machine from the fields: 10,368 SeaStars in a 27x16x24 mesh closed in z,
    // every node drawn and in the counters table, a far node's tooltip its own counters.
    void red_storm_builds_from_the_fields_and_shows_every_node() {
        window_->spec()->set_preset("seastar");
        window_->spec()->set_nodes(10368);
        window_->spec()->set_topology("mesh:dims=27x16x24:wrap=[false,false,true]");
        build();
        QCOMPARE(shown().phase, SystemSnapshot::Phase::paused);
        QCOMPARE(shown().nodes.size(), size_t(10368));
        QCOMPARE(shown().routers, 10368u);
        QVERIFY(view()->scene()->node_label(10367).contains("node 10367"));
        const QString tip = view()->scene()->tooltip_at(view()->scene()->node_centre(10367));
        QVERIFY2(tip.contains(QString("core.instructions = %1").arg(shown().nodes[10367].counter("core.instructions"))),
                 qPrintable(tip));
        QCOMPARE(view()->findChild<QTableView*>("counters")->model()->columnCount(), 10368);
        // Every node counts the same things: one list of names serves them all (a list per
        // node was most of Red Storm's snapshot), each with its own values.
        for (const NodeView& node : shown().nodes) QCOMPARE(node.counter_names.get(), shown().nodes[0].counter_names.get());
        QCOMPARE(shown().nodes[10367].counter_values.size(), shown().nodes[0].counter_names->size());
        QCOMPARE(view()->findChild<QTableView*>("counters")->model()->rowCount(), int(shown().nodes[0].counter_names->size()) + 1);
    }

    void a_topology_missing_its_keys_is_a_dialog_saying_what_to_type() {
        window_->spec()->set_nodes(8);
        window_->spec()->set_topology("torus");
        click("build");
        QVERIFY(error_dialog());
        QVERIFY2(error_dialog()->text().contains("topology.dims"), qPrintable(error_dialog()->text()));
        close_dialogs();
        window_->spec()->set_topology("torus:dims");
        click("build");
        QVERIFY(error_dialog());
        QVERIFY2(error_dialog()->text().contains("KEY=VALUE"), qPrintable(error_dialog()->text()));
    }

    void a_bad_spec_is_a_dialog_naming_the_key() {
        use_spec(R"({"preset": "seastar", "nodes": -3})");
        click("build");
        QVERIFY(error_dialog());
        QVERIFY2(error_dialog()->text().contains("nodes"), qPrintable(error_dialog()->text()));
        close_dialogs();
        use_spec(R"({"preset": "seastar", "nodes": 2, "firmware": "no_such_image"})");
        click("build");
        QVERIFY(error_dialog());
        QVERIFY2(error_dialog()->text().contains("no_such_image"), qPrintable(error_dialog()->text()));
        close_dialogs();
        window_->spec()->set_spec_file(dir_.filePath("missing.json"));
        click("build");
        QVERIFY(error_dialog());
        QVERIFY2(error_dialog()->text().contains("missing.json"), qPrintable(error_dialog()->text()));
    }
};

QTEST_MAIN(SystemViewTest)
#include "test_system_view.moc"
