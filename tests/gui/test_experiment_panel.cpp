// The experiment runner: a small ping-pong drawn point by point equals its Result,
// runs overlay with the published points, cancel stops the worker, bad input is a
// dialog naming what is wrong, and saving writes what the CLI writes.
#include <memory>

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include "gui_test_support.hpp"
#include "model/result_files.hpp"
#include "model/run_channel.hpp"
#include "views/experiment_panel.hpp"
#include "views/main_window.hpp"
#include "views/option_form.hpp"
#include "views/result_chart.hpp"
#include "views/spec_picker.hpp"
#include "worker/experiment_worker.hpp"

using namespace niclab;
using namespace niclab::gui;
using namespace niclab::gui::testing;

class ExperimentPanelTest : public QObject {
    Q_OBJECT

    std::unique_ptr<MainWindow> window_;
    ExperimentPanel* panel() { return window_->experiments(); }

    // Clicks Run and waits for the run to end (any dialog it opens stays open).
    bool run_to_end() {
        QSignalSpy done(panel(), &ExperimentPanel::run_finished);
        QTest::mouseClick(panel()->findChild<QPushButton*>("run"), Qt::LeftButton);
        return done.wait(180000);
    }
    void small_pingpong(const QString& op = {}) {
        panel()->select_experiment("pingpong");
        QVERIFY(panel()->form()->set_value("sizes", "1, 64, 4096"));
        QVERIFY(panel()->form()->set_value("repeats", "2"));
        if (!op.isEmpty()) QVERIFY(panel()->form()->set_value("op", op));
    }
    // Clicks Run and waits for an error dialog or the end of the run; `text` is the
    // dialog's text (empty if none opened).
    void run_for_error(QString& text) {
        QTest::mouseClick(panel()->findChild<QPushButton*>("run"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(error_dialog() != nullptr || !panel()->worker()->running(), 180000);
        if (panel()->worker()->running()) {
            QSignalSpy done(panel(), &ExperimentPanel::run_finished);
            QVERIFY(done.wait(180000));
        }
        QMessageBox* box = error_dialog();
        text = box ? box->text() : QString();
    }

private slots:
    void init() { window_ = open_window(&MainWindow::experiments); }
    void cleanup() { close_window(window_); }

    void pingpong_chart_holds_the_results_points() {
        small_pingpong();
        QVERIFY(run_to_end());
        QVERIFY(error_dialog() == nullptr);
        QCOMPARE(panel()->runs(), 1);
        const exp::Result& r = *panel()->result(0);
        QCOMPARE(r.rows(), size_t(3));
        QCOMPARE(panel()->y_column(), QString("latency_us"));
        const auto sizes = r.column("size"), latency = r.column("latency_us");
        const QList<QPointF> drawn = panel()->chart()->drawn(0);
        QCOMPARE(drawn.size(), qsizetype(r.rows()));
        for (size_t i = 0; i < r.rows(); ++i) {
            QCOMPARE(drawn[qsizetype(i)].x(), sizes[i]);
            QCOMPARE(drawn[qsizetype(i)].y(), latency[i]);
        }
        // The SeaStar's published 1-byte put latency (seed 001 Fig. 4) is on the plot.
        QCOMPARE(panel()->chart()->published_drawn(), 1);
        QVERIFY(!panel()->findChild<QLabel*>("fit")->text().isEmpty());
        screenshot(window_.get(), "experiments");
    }

    void runs_overlay_each_with_its_published_point() {
        small_pingpong("put");
        QVERIFY(run_to_end());
        small_pingpong("get");
        QVERIFY(run_to_end());
        QCOMPARE(panel()->runs(), 2);
        QCOMPARE(panel()->chart()->runs(), 2);
        QCOMPARE(panel()->chart()->drawn(1).size(), 3);
        QCOMPARE(panel()->chart()->published_drawn(), 2);  // put and get, 1 B
        QVERIFY(panel()->result(1)->params.at("op") == "get");
        screenshot(panel()->chart(), "experiments-overlay");
    }

    void cancel_stops_the_run_after_the_point_under_way() {
        panel()->select_experiment("pingpong");  // the full default sweep: far longer than the test
        QSignalSpy done(panel(), &ExperimentPanel::run_finished);
        QTest::mouseClick(panel()->findChild<QPushButton*>("run"), Qt::LeftButton);
        QVERIFY(panel()->worker()->running());
        QTRY_VERIFY_WITH_TIMEOUT(panel()->result(0) && panel()->result(0)->rows() >= 1, 180000);
        QTest::mouseClick(panel()->findChild<QPushButton*>("cancel"), Qt::LeftButton);
        QVERIFY(done.wait(180000));
        QVERIFY(!panel()->worker()->running());
        const exp::Result& r = *panel()->result(0);
        QVERIFY(r.stopped);
        QVERIFY(r.rows() < r.planned);
        QCOMPARE(panel()->chart()->drawn(0).size(), qsizetype(r.rows()));
        QVERIFY(error_dialog() == nullptr);
    }

    void a_fitted_model_is_drawn_dashed_with_its_parameters() {
        // Comms1 fits t_n = t0 + n / r_inf to its latencies (seed 003 §8.4).
        panel()->select_experiment("comms1");
        QVERIFY(panel()->form()->set_value("sizes", "8, 256, 4096, 16384"));
        QVERIFY(panel()->form()->set_value("repeats", "2"));
        QVERIFY(run_to_end());
        QVERIFY(error_dialog() == nullptr);
        const exp::Result& r = *panel()->result(0);
        QVERIFY2(r.fit.contains("t0_us") && r.fit.contains("r_inf_mb_s"), r.fit.dump().c_str());
        const double t0 = r.fit["t0_us"].get<double>(), r_inf = r.fit["r_inf_mb_s"].get<double>();
        QCOMPARE(panel()->y_column(), QString("latency_us"));
        const QList<QPointF> fit = panel()->chart()->fit_drawn(0);
        QVERIFY(fit.size() > 10);
        QCOMPARE(fit.front().x(), 8.0);
        QCOMPARE(fit.back().x(), 16384.0);
        for (const QPointF& p : fit) QVERIFY(qAbs(p.y() - (t0 + p.x() / r_inf)) < 1e-9 * (1 + p.y()));
        QVERIFY(panel()->findChild<QLabel*>("fit")->text().contains("t0_us = "));
        screenshot(window_.get(), "experiments-fit");
        // On the bandwidth axis the same model is n / t_n.
        panel()->findChild<QComboBox*>("yColumn")->setCurrentText("bandwidth_mb_s");
        const QList<QPointF> bw = panel()->chart()->fit_drawn(0);
        QVERIFY(!bw.isEmpty());
        QVERIFY(qAbs(bw.back().y() - 16384.0 / (t0 + 16384.0 / r_inf)) < 1e-9 * bw.back().y());
    }

    void a_run_without_a_fit_draws_none() {
        small_pingpong();
        QVERIFY(run_to_end());
        QVERIFY(panel()->chart()->fit_drawn(0).isEmpty());
    }

    void cancel_abandons_a_long_point_under_way() {
        // The second point (8 MB ping-pongs) runs for minutes of wall time: only the
        // kernel's poll of the cancel flag stops it before it ends.
        panel()->select_experiment("pingpong");
        QVERIFY(panel()->form()->set_value("sizes", "8, 8388608"));
        QVERIFY(panel()->form()->set_value("repeats", "20"));
        QSignalSpy done(panel(), &ExperimentPanel::run_finished);
        QTest::mouseClick(panel()->findChild<QPushButton*>("run"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(panel()->result(0) && panel()->result(0)->rows() >= 1, 180000);
        QTest::mouseClick(panel()->findChild<QPushButton*>("cancel"), Qt::LeftButton);
        QVERIFY(done.wait(180000));
        QVERIFY(!panel()->worker()->running());
        QCOMPARE(panel()->worker()->channel()->snapshot().state, RunChannel::State::cancelled);
        const exp::Result& r = *panel()->result(0);
        QCOMPARE(r.rows(), size_t(1));  // the 8 MB point never finished
        QVERIFY(r.stopped);
        QVERIFY(panel()->findChild<QLabel*>("runStatus")->text().startsWith("cancelled after 1 of"));
        QVERIFY(error_dialog() == nullptr);
    }

    void a_bad_option_is_a_dialog_naming_it() {
        panel()->select_experiment("pingpong");
        QVERIFY(panel()->form()->set_value("max_size", "lots"));
        QString text;
        run_for_error(text);
        QVERIFY2(text.contains("max_size"), qPrintable(text));
        QCOMPARE(panel()->runs(), 0);
        screenshot(error_dialog(), "error-dialog");
    }

    void a_bad_spec_is_a_dialog_naming_the_key() {
        QTemporaryDir dir;
        window_->spec()->set_spec_file(write_file(dir, "bad.json", R"({"preset": "seastar", "nodes": "two"})"));
        small_pingpong();
        QString text;
        run_for_error(text);
        QVERIFY2(text.contains("nodes"), qPrintable(text));
        close_dialogs();
        window_->spec()->set_spec_file(write_file(dir, "typo.json", R"({"preset": "seastar", "nodez": 2})"));
        run_for_error(text);
        QVERIFY2(text.contains("nodez"), qPrintable(text));
        QCOMPARE(panel()->runs(), 0);
    }

    void a_missing_spec_file_is_a_dialog_naming_it() {
        window_->spec()->set_spec_file("/nonexistent/cluster-spec.json");
        small_pingpong();
        QString text;
        run_for_error(text);
        QVERIFY2(text.contains("cluster-spec.json"), qPrintable(text));
    }

    void a_firmware_fault_is_a_dialog_with_its_report() {
        // portals_rx2_panic has two RX pendings and panics when the LogP signature's
        // bursts run them out (seed 000 §4.3.3), after the signature's first points.
        QTemporaryDir dir;
        window_->spec()->set_spec_file(
            write_file(dir, "rx2.json", R"({"preset": "seastar", "nodes": 2, "firmware": "portals_rx2_panic"})"));
        panel()->select_experiment("logp_signature");
        QString text;
        run_for_error(text);
        QVERIFY2(text.contains("RX pending pool exhausted"), qPrintable(text));
        QVERIFY2(text.contains("rx_pending_alloc+") && text.contains("pending.c:"), qPrintable(text));
        QVERIFY(!panel()->worker()->running());
        // The points measured before the fault stay on the plot.
        const exp::Result& partial = *panel()->result(0);
        QVERIFY(partial.stopped && partial.rows() >= 1);
        QCOMPARE(panel()->chart()->runs(), 1);
        screenshot(error_dialog(), "experiment-fault");
    }

    void a_firmware_that_is_not_portals_is_a_dialog_naming_it() {
        QTemporaryDir dir;
        window_->spec()->set_spec_file(
            write_file(dir, "hello.json", R"({"preset": "seastar", "nodes": 2, "firmware": "hello"})"));
        small_pingpong();
        QString text;
        run_for_error(text);
        QVERIFY2(text.contains("not the Portals firmware"), qPrintable(text));
    }

    void save_writes_what_the_cli_writes() {
        small_pingpong();
        QVERIFY(run_to_end());
        const exp::Result& r = *panel()->result(0);
        QTemporaryDir dir;
        QVERIFY(panel()->save_to(dir.filePath("r.json")));
        QFile json(dir.filePath("r.json"));
        QVERIFY(json.open(QIODevice::ReadOnly));
        QVERIFY(nlohmann::json::parse(json.readAll().toStdString()) == r.to_json());
        QVERIFY(panel()->save_to(dir.filePath("r.csv")));
        QFile csv(dir.filePath("r.csv"));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        QCOMPARE(csv.readAll().toStdString(), r.to_csv());
        QVERIFY(panel()->save_to(dir.filePath("np.out")));
        QVERIFY(!panel()->save_to(dir.filePath("r.xyz")));
        QVERIFY2(error_dialog() && error_dialog()->text().contains("r.xyz"), "no dialog naming the file");
    }
};

QTEST_MAIN(ExperimentPanelTest)
#include "test_experiment_panel.moc"
