#pragma once
// The experiment runner: every registered experiment with its options as a form, run
// on the worker thread, its points drawn as they are measured, runs overlaid, the
// fitted parameters, cancel, and save in the CLI's formats. It calls the registry
// (exp::run_experiment) exactly as the Python API and the CLI do.
#include <optional>
#include <utility>
#include <vector>

#include <QList>
#include <QPointF>
#include <QWidget>

#include "niclab/exp/result.hpp"

class QCheckBox;
class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QTimer;

namespace niclab::gui {

class ExperimentWorker;
class OptionForm;
class ResultChart;
class SpecPicker;

class ExperimentPanel : public QWidget {
    Q_OBJECT
public:
    ExperimentPanel(SpecPicker* spec, QWidget* parent = nullptr);

    void select_experiment(const QString& name);
    OptionForm* form() const { return form_; }
    ResultChart* chart() const { return chart_; }
    ExperimentWorker* worker() const { return worker_; }
    // The latest state of run `i` (points so far, or the final Result).
    const std::optional<exp::Result>& result(int i) const { return runs_.at(size_t(i)).result; }
    int runs() const { return int(runs_.size()); }
    QString y_column() const;

public slots:
    void run();
    void cancel();
    // Writes the last run's result to `path` (format from its ending, as the CLI);
    // a dialog says what is wrong. Returns whether it was written.
    bool save_to(const QString& path);

signals:
    void run_finished();  // after the final points are drawn and any error dialog opened

private:
    struct Run {
        QString label;
        std::optional<exp::Result> result;
    };
    void refresh();
    void finished();
    void redraw_all();
    void show_columns(const exp::Result& r);
    void show_fit(const exp::Result& r);
    // The run's fitted model on the chart's y column, and its legend; empty when none.
    std::pair<QList<QPointF>, QString> fit_of(const exp::Result& r, const QString& run) const;
    QList<QPointF> points_of(const exp::Result& r) const;
    void set_running(bool running);

    SpecPicker* spec_;
    QComboBox* experiment_;
    QLabel* summary_;
    OptionForm* form_;
    QPushButton *run_, *cancel_, *save_, *clear_;
    QProgressBar* progress_;
    QLabel* status_;
    QLabel* fit_;
    QComboBox* y_;
    QCheckBox *log_x_, *log_y_;
    ResultChart* chart_;
    QTimer* timer_;
    ExperimentWorker* worker_;
    std::vector<Run> runs_;
    uint64_t seen_version_ = 0;
};

}  // namespace niclab::gui
