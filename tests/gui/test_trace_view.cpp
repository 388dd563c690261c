// The trace viewer: two nodes' traces on one time axis, the list in Figure 2's format,
// the selected record's source line, the time between two records, and bad files as
// dialogs naming what is wrong.
#include <memory>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPlainTextEdit>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QSet>
#include <QTest>
#include <QTextBlock>

#include "gui_test_support.hpp"
#include "niclab/exp/experiments.hpp"
#include "niclab/trace/decoder.hpp"
#include "niclab/trace/trace_file.hpp"
#include "niclab/trace/trace_json.hpp"
#include "views/main_window.hpp"
#include "views/source_view.hpp"
#include "views/trace_view.hpp"

using namespace niclab;
using namespace niclab::gui;
using namespace niclab::gui::testing;

namespace {
const QString kTraces = QString(NICLAB_SOURCE_DIR) + "/traces/";
}

class TraceViewTest : public QObject {
    Q_OBJECT

    std::unique_ptr<MainWindow> window_;
    TraceView* view() { return window_->trace_view(); }
    int open_demo() {
        return view()->open({kTraces + "trace_demo_2n_node0.trace", kTraces + "trace_demo_2n_node1.trace"},
                            kTraces + "trace_demo.elf");
    }

    QJsonObject export_and_read(const QString& path) {
        if (!view()->export_perfetto(path)) qFatal("the export failed");
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly)) qFatal("no export written");
        QJsonParseError err;
        const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &err);
        if (err.error != QJsonParseError::NoError) qFatal("the export is not JSON: %s", qPrintable(err.errorString()));
        return doc.object();
    }

private slots:
    void init() { window_ = open_window(&MainWindow::trace_view); }
    void cleanup() { close_window(window_); }

    void two_nodes_share_one_time_axis_in_figure_2_format() {
        // Version 2 traces (with the global time axis), as an experiment keeps them.
        system::SystemSpec spec;
        spec.nodes = 2;
        const std::string elf = std::string(NICLAB_FIRMWARE_DIR) + "/portals/portals_traced.elf";
        spec.firmware = {elf};
        exp::Observe observe;
        observe.trace = true;
        const exp::Result r = exp::run_experiment("pingpong", spec, {{"sizes", {8}}, {"repeats", 2}}, observe);
        QTemporaryDir dir;
        QStringList files;
        for (const auto& t : r.observations.at("traces")) {
            files << dir.filePath(QString("node%1.trace").arg(files.size()));
            trace::save_trace(trace::from_json(t), files.back().toStdString());
        }
        QCOMPARE(files.size(), 2);
        QCOMPARE(view()->open(files, QString::fromStdString(elf)), 2);
        QVERIFY(error_dialog() == nullptr);
        QVERIFY(view()->traces().global());
        const auto& rows = view()->traces().rows();
        bool nodes[2] = {false, false};
        for (size_t i = 0; i < rows.size(); ++i) {
            nodes[rows[i].node] = true;
            QVERIFY(rows[i].record.sim_time_ns.has_value());
            if (i) QVERIFY(rows[i - 1].t_ns <= rows[i].t_ns);
        }
        QVERIFY(nodes[0] && nodes[1]);
        QCOMPARE(view()->list()->rowCount(), int(rows.size()));
        for (int i : {0, int(rows.size()) - 1})
            QCOMPARE(view()->list()->item(i, 2)->text().toStdString(), trace::format_record(rows[size_t(i)].record, true));
        view()->select_row(int(rows.size()) - 1);
        QVERIFY(view()->source_line() > 0);
        screenshot(window_.get(), "traces-two-nodes");

        // Exported to Perfetto and read back: one instant per record on the simulated
        // axis (µs), each node its own track.
        const QJsonObject doc = export_and_read(dir.filePath("perfetto.json"));
        QCOMPARE(doc["otherData"].toObject()["time_axis"].toString(), QString("simulated"));
        int instants[2] = {0, 0};
        for (const auto& v : doc["traceEvents"].toArray()) {
            const QJsonObject e = v.toObject();
            if (e["ph"].toString() != "i") continue;
            const int node = e["pid"].toInt();
            QVERIFY(node == 0 || node == 1);
            if (instants[node] == 0) {  // the node's first record, at its simulated time
                for (const auto& row : rows)
                    if (int(row.node) == node) {
                        QCOMPARE(e["ts"].toDouble(), *row.record.sim_time_ns / 1000.0);
                        QCOMPARE(e["args"].toObject()["value"].toInt(), int(row.record.value));
                        break;
                    }
            }
            ++instants[node];
        }
        QCOMPARE(instants[0] + instants[1], int(rows.size()));
        QVERIFY(instants[0] > 0 && instants[1] > 0);
    }

    void the_demo_traces_export_with_their_spans() {
        QCOMPARE(open_demo(), 2);
        QTemporaryDir dir;
        const QJsonObject doc = export_and_read(dir.filePath("demo.json"));
        QCOMPARE(doc["otherData"].toObject()["time_axis"].toString(), QString("per-node core clock"));
        QSet<QString> spans;
        for (const auto& v : doc["traceEvents"].toArray()) {
            const QJsonObject e = v.toObject();
            if (e["ph"].toString() != "X") continue;
            QVERIFY(e["dur"].toDouble() >= 0);
            spans << e["name"].toString();
        }
        QVERIFY(!spans.isEmpty());
        QVERIFY(spans.contains("rx_complete [16]"));
        for (const QString& s : spans) QVERIFY2(s == "rx_complete [16]" || s == "goaccel_tx_command [32]", qPrintable(s));
    }

    void exporting_nothing_or_to_a_bad_place_is_a_dialog() {
        QVERIFY(!view()->export_perfetto("/tmp/never-written.json"));
        QVERIFY(error_dialog());
        QVERIFY(error_dialog()->text().contains("no trace is open"));
        close_dialogs();
        QCOMPARE(open_demo(), 2);
        QVERIFY(!view()->export_perfetto("/nonexistent-dir/x.json"));
        QVERIFY(error_dialog());
        QVERIFY(error_dialog()->text().contains("/nonexistent-dir/x.json"));
    }

    void version_1_traces_say_their_times_are_each_nodes_own() {
        QCOMPARE(open_demo(), 2);
        QVERIFY(!view()->traces().global());
        QVERIFY(window_->findChild<QLabel*>("axis")->text().contains("own core time"));
    }

    void the_selected_record_opens_its_source_at_the_trace_point() {
        QCOMPARE(open_demo(), 2);
        view()->set_filters("16", "rx_complete");  // trace_val(TV_RX) at the top of rx_complete
        QVERIFY(view()->list()->rowCount() > 0);
        view()->select_row(0);
        QVERIFY2(view()->source_file().endsWith("trace_demo.c"), qPrintable(view()->source_file()));
        QCOMPARE(view()->source_line(), 79);
        const QTextBlock line = view()->source()->document()->findBlockByLineNumber(78);
        QVERIFY2(line.text().contains("trace_val(TV_RX);"), qPrintable(line.text()));
        QCOMPARE(view()->source()->textCursor().blockNumber(), 78);
        screenshot(window_.get(), "traces");
    }

    void two_selected_records_show_the_time_between_them() {
        QCOMPARE(open_demo(), 2);
        view()->select_rows(0, 3);
        const auto& rows = view()->traces().rows();
        const double dt = rows[3].t_ns - rows[0].t_ns;
        QVERIFY2(view()->delta_text().contains(QString::number(dt, 'f', 1) + " ns"), qPrintable(view()->delta_text()));
    }

    void a_corrupt_file_is_a_dialog_naming_it() {
        QTemporaryDir dir;
        const QString bad = write_file(dir, "broken.trace", QByteArray("NICTRACE\x02\x00garbage", 17));
        QCOMPARE(view()->open({bad}, {}), 0);
        QVERIFY(error_dialog());
        const QString text = error_dialog()->text();
        QVERIFY2(text.contains("broken.trace") && text.contains("offset"), qPrintable(text));
    }

    void a_trace_with_another_builds_elf_is_a_dialog_naming_both_builds() {
        QCOMPARE(view()->open({kTraces + "trace_demo_node0.trace"}, QString(NICLAB_FIRMWARE_DIR) + "/examples/hello.elf"), 0);
        QVERIFY(error_dialog());
        QVERIFY2(error_dialog()->text().contains("build", Qt::CaseInsensitive), qPrintable(error_dialog()->text()));
    }
};

QTEST_MAIN(TraceViewTest)
#include "test_trace_view.moc"
