#include "views/experiment_panel.hpp"

#include <cmath>

#include <set>
#include <tuple>

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTimer>
#include <QVBoxLayout>

#include "model/result_files.hpp"
#include "model/spec_choice.hpp"
#include "niclab/exp/experiments.hpp"
#include "niclab/exp/fitted_curve.hpp"
#include "niclab/exp/published_points.hpp"
#include "views/error_dialog.hpp"
#include "views/option_form.hpp"
#include "views/result_chart.hpp"
#include "views/spec_picker.hpp"
#include "worker/experiment_worker.hpp"

namespace niclab::gui {

namespace {

// How often the views look at a running experiment: often enough to see points arrive
// one by one, rarely enough that copying the growing Result costs nothing.
constexpr int kRefreshMs = 100;

QString axis_title(const exp::Column& c) {
    const QString unit = QString::fromStdString(c.unit == "us" ? "µs" : c.unit);
    return QString::fromStdString(c.name) + (unit.isEmpty() ? "" : " (" + unit + ")");
}

}  // namespace

ExperimentPanel::ExperimentPanel(SpecPicker* spec, QWidget* parent)
    : QWidget(parent), spec_(spec), worker_(new ExperimentWorker(this)) {
    experiment_ = new QComboBox;
    experiment_->setObjectName("experiment");
    for (const auto& e : exp::experiments()) experiment_->addItem(QString::fromStdString(e.name));
    summary_ = new QLabel;
    summary_->setWordWrap(true);
    form_ = new OptionForm;
    auto* scroll = new QScrollArea;
    scroll->setWidget(form_);
    scroll->setWidgetResizable(true);

    run_ = new QPushButton("Run");
    run_->setObjectName("run");
    cancel_ = new QPushButton("Cancel");
    cancel_->setObjectName("cancel");
    save_ = new QPushButton("Save…");
    save_->setObjectName("save");
    clear_ = new QPushButton("Clear plot");
    auto* buttons = new QHBoxLayout;
    for (auto* b : {run_, cancel_, save_, clear_}) buttons->addWidget(b);
    progress_ = new QProgressBar;
    progress_->setObjectName("progress");
    status_ = new QLabel("ready");
    status_->setObjectName("runStatus");
    status_->setWordWrap(true);
    fit_ = new QLabel;
    fit_->setObjectName("fit");
    fit_->setWordWrap(true);
    fit_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* left = new QWidget;
    auto* lv = new QVBoxLayout(left);
    lv->addWidget(experiment_);
    lv->addWidget(summary_);
    lv->addWidget(scroll, 1);
    lv->addLayout(buttons);
    lv->addWidget(progress_);
    lv->addWidget(status_);
    lv->addWidget(new QLabel("<b>Fitted parameters</b>"));
    lv->addWidget(fit_);

    y_ = new QComboBox;
    y_->setObjectName("yColumn");
    log_x_ = new QCheckBox("log x");
    log_x_->setChecked(true);
    log_y_ = new QCheckBox("log y");
    log_y_->setChecked(true);
    chart_ = new ResultChart;
    auto* right = new QWidget;
    auto* rv = new QVBoxLayout(right);
    auto* axes = new QHBoxLayout;
    axes->addWidget(new QLabel("Plot"));
    axes->addWidget(y_, 1);
    axes->addWidget(log_x_);
    axes->addWidget(log_y_);
    rv->addLayout(axes);
    rv->addWidget(chart_, 1);

    auto* split = new QSplitter;
    split->addWidget(left);
    split->addWidget(right);
    split->setStretchFactor(1, 1);
    auto* top = new QVBoxLayout(this);
    top->setContentsMargins(0, 0, 0, 0);
    top->addWidget(split);

    timer_ = new QTimer(this);
    timer_->setInterval(kRefreshMs);
    connect(timer_, &QTimer::timeout, this, &ExperimentPanel::refresh);
    connect(worker_, &ExperimentWorker::finished, this, &ExperimentPanel::finished);
    connect(experiment_, &QComboBox::currentTextChanged, this, [this](const QString& name) {
        summary_->setText(QString::fromStdString(exp::experiments().at(size_t(experiment_->currentIndex())).summary));
        form_->set_experiment(name.toStdString());
    });
    connect(run_, &QPushButton::clicked, this, &ExperimentPanel::run);
    connect(cancel_, &QPushButton::clicked, this, &ExperimentPanel::cancel);
    connect(save_, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            this, "Save the result", experiment_->currentText() + ".json",
            "JSON (*.json);;CSV (*.csv);;OSU text (*.osu *.txt);;NetPIPE np.out (*.np.out *.out)");
        if (!path.isEmpty()) save_to(path);
    });
    connect(clear_, &QPushButton::clicked, this, [this] {
        if (worker_->running()) return;
        runs_.clear();
        chart_->clear_runs();
        fit_->clear();
        save_->setEnabled(false);
    });
    connect(y_, &QComboBox::currentTextChanged, this, [this] { redraw_all(); });
    for (auto* box : {log_x_, log_y_}) connect(box, &QCheckBox::toggled, this, [this] { redraw_all(); });

    summary_->setText(QString::fromStdString(exp::experiments().front().summary));
    form_->set_experiment(experiment_->currentText().toStdString());
    set_running(false);
    save_->setEnabled(false);
}

void ExperimentPanel::select_experiment(const QString& name) { experiment_->setCurrentText(name); }

QString ExperimentPanel::y_column() const { return y_->currentText(); }

void ExperimentPanel::set_running(bool running) {
    run_->setEnabled(!running);
    cancel_->setEnabled(running);
    experiment_->setEnabled(!running);
    clear_->setEnabled(!running);
}

void ExperimentPanel::run() {
    if (worker_->running()) return;
    ExperimentJob job;
    job.experiment = experiment_->currentText().toStdString();
    try {
        job.spec = build_spec(spec_->choice());
        job.options = form_->options();
    } catch (const std::exception& e) {  // InputError, ConfigError: each names its key
        show_error(this, "Cannot run " + experiment_->currentText(), QString::fromUtf8(e.what()));
        return;
    }
    QString label = experiment_->currentText() + QString(" #%1").arg(runs_.size() + 1);
    if (!job.options.empty()) label += " " + QString::fromStdString(job.options.dump());
    runs_.push_back({label, std::nullopt});
    chart_->add_run(label);
    seen_version_ = 0;
    worker_->start(std::move(job));
    set_running(true);
    progress_->setRange(0, 0);  // busy until the run says how many points it plans
    status_->setText("running " + label);
    fit_->clear();
    timer_->start();
}

void ExperimentPanel::cancel() {
    if (!worker_->running()) return;
    worker_->cancel();
    cancel_->setEnabled(false);
    status_->setText("cancelling…");
}

void ExperimentPanel::refresh() {
    const auto channel = worker_->channel();
    if (!channel || runs_.empty() || channel->version() == seen_version_) return;
    const RunChannel::Snapshot s = channel->snapshot();
    seen_version_ = s.version;
    if (!s.result) return;
    Run& run = runs_.back();
    run.result = s.result;
    if (y_->count() == 0 || y_->findText(QString::fromStdString(s.result->columns().back().name)) < 0)
        show_columns(*s.result);
    chart_->replace(runs() - 1, points_of(*s.result));
    const int planned = int(s.result->planned);
    if (planned > 0) {
        progress_->setRange(0, planned);
        progress_->setValue(int(s.result->rows()));
    }
}

void ExperimentPanel::finished() {
    timer_->stop();
    refresh();
    set_running(false);
    const RunChannel::Snapshot s = worker_->channel()->snapshot();
    progress_->setRange(0, 1);
    progress_->setValue(1);
    save_->setEnabled(runs_.back().result.has_value());
    if (s.result) {
        show_fit(*s.result);
        redraw_all();  // the published points for this run's options
    }
    if (s.state == RunChannel::State::failed) {
        status_->setText("failed");
        show_error(this, runs_.back().label + " failed", QString::fromUtf8(s.error.c_str()));
    } else if (s.state == RunChannel::State::cancelled || (s.result && s.result->stopped)) {
        status_->setText(QString("cancelled after %1 of %2 points")
                             .arg(s.result ? s.result->rows() : 0)
                             .arg(s.result ? s.result->planned : 0));
    } else {
        status_->setText(QString("done: %1 points").arg(s.result ? s.result->rows() : 0));
    }
    emit run_finished();
}

void ExperimentPanel::show_columns(const exp::Result& r) {
    const QSignalBlocker block(y_);
    const QString keep = y_->currentText();
    y_->clear();
    for (size_t i = 1; i < r.columns().size(); ++i) y_->addItem(QString::fromStdString(r.columns()[i].name));
    int pick = y_->findText(keep);
    for (const char* preferred : {"latency_us", "bandwidth_mb_s"})
        if (pick < 0) pick = y_->findText(preferred);
    y_->setCurrentIndex(std::max(0, pick));
    redraw_all();
}

QList<QPointF> ExperimentPanel::points_of(const exp::Result& r) const {
    QList<QPointF> points;
    const std::string y = y_->currentText().toStdString();
    if (r.columns().empty() || !r.has_column(y)) return points;
    const size_t yi = r.column_index(y);
    for (size_t i = 0; i < r.rows(); ++i) points.append({r.row(i).at(0), r.row(i).at(yi)});
    return points;
}

std::pair<QList<QPointF>, QString> ExperimentPanel::fit_of(const exp::Result& r, const QString& run) const {
    // The model over the measured sizes, geometrically spaced (the x axis is log by default).
    const auto sizes = r.has_column("size") ? r.column("size") : std::vector<double>{};
    double lo = 0, hi = 0;
    for (double s : sizes)
        if (s > 0) lo = lo > 0 ? std::min(lo, s) : s, hi = std::max(hi, s);
    if (lo <= 0 || hi <= lo) return {};
    std::vector<double> xs;
    constexpr int kPoints = 64;
    for (int i = 0; i < kPoints; ++i) xs.push_back(lo * std::pow(hi / lo, double(i) / (kPoints - 1)));
    const auto ys = exp::fitted_curve(r.fit, y_->currentText().toStdString(), xs);
    QList<QPointF> curve;
    for (size_t i = 0; i < ys.size(); ++i) curve.append({xs[i], ys[i]});
    QString label = run + " fit";
    if (!curve.isEmpty() && r.fit.contains("t0_us") && r.fit.contains("r_inf_mb_s"))
        label += QString(": t0 = %1 µs, r∞ = %2 MB/s")
                     .arg(r.fit["t0_us"].get<double>(), 0, 'g', 3)
                     .arg(r.fit["r_inf_mb_s"].get<double>(), 0, 'g', 3);
    return {curve, label};
}

void ExperimentPanel::redraw_all() {
    const exp::Result* any = nullptr;
    for (const auto& run : runs_)
        if (run.result) any = &*run.result;
    if (!any) return;
    const std::string y = y_->currentText().toStdString();
    const QString y_title = any->has_column(y) ? axis_title(any->columns().at(any->column_index(y))) : QString();
    chart_->set_axes(axis_title(any->columns().front()), y_title, log_x_->isChecked(), log_y_->isChecked());
    std::vector<exp::PublishedPoint> published;
    std::set<std::tuple<double, double, std::string>> seen;
    for (int i = 0; i < runs(); ++i) {
        if (!runs_[size_t(i)].result) continue;
        chart_->replace(i, points_of(*runs_[size_t(i)].result));
        const auto [curve, label] = fit_of(*runs_[size_t(i)].result, runs_[size_t(i)].label);
        chart_->set_fit(i, curve, label);
        for (const auto& p : exp::published_points(*runs_[size_t(i)].result, y))
            if (seen.insert({p.x, p.value, p.label}).second) published.push_back(p);
    }
    chart_->set_published(published);
}

void ExperimentPanel::show_fit(const exp::Result& r) {
    QStringList lines;
    if (r.fit.is_object())
        for (const auto& [key, value] : r.fit.items()) {
            const QString v = value.is_number() ? QString::number(value.get<double>(), 'g', 5)
                                                : QString::fromStdString(value.dump());
            lines << QString::fromStdString(key) + " = " + v;
        }
    fit_->setText(lines.isEmpty() ? QString("(none for this experiment)") : lines.join("\n"));
}

bool ExperimentPanel::save_to(const QString& path) {
    if (runs_.empty() || !runs_.back().result) {
        show_error(this, "Nothing to save", "Run an experiment first: there is no result yet.");
        return false;
    }
    try {
        save_result(*runs_.back().result, path.toStdString(), y_->currentText().toStdString());
    } catch (const std::exception& e) {
        show_error(this, "Cannot save", QString::fromUtf8(e.what()));
        return false;
    }
    status_->setText("saved " + path);
    return true;
}

}  // namespace niclab::gui
