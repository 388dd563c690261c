#include "views/result_chart.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <QChart>
#include <QLineSeries>
#include <QPen>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QValueAxis>

namespace niclab::gui {

ResultChart::ResultChart(QWidget* parent) : QChartView(parent), published_(new QScatterSeries) {
    setObjectName("resultChart");
    setRenderHint(QPainter::Antialiasing);
    chart()->legend()->setAlignment(Qt::AlignBottom);
    published_->setName("published");
    published_->setMarkerShape(QScatterSeries::MarkerShapeStar);
    published_->setMarkerSize(14);
    published_->setColor(Qt::black);
    chart()->addSeries(published_);
    set_axes("size (B)", "", true, true);
}

bool ResultChart::drawable(QPointF p) const {
    // A 0-byte point has no place on a log axis; neither has a NaN anywhere.
    if (!std::isfinite(p.x()) || !std::isfinite(p.y())) return false;
    return (!log_x_ || p.x() > 0) && (!log_y_ || p.y() > 0);
}

int ResultChart::add_run(const QString& label) {
    auto* s = new QLineSeries;
    s->setName(label);
    s->setPointsVisible(true);
    chart()->addSeries(s);
    for (auto* axis : chart()->axes()) s->attachAxis(axis);
    runs_.push_back({{}, s, {}, nullptr});
    return int(runs_.size()) - 1;
}

void ResultChart::append(int run, QPointF p) {
    auto& r = runs_.at(size_t(run));
    r.points.append(p);
    if (drawable(p)) r.series->append(p);
    fit_axes();
}

void ResultChart::replace(int run, const QList<QPointF>& points) {
    auto& r = runs_.at(size_t(run));
    r.points = points;
    QList<QPointF> shown;
    for (const auto& p : points)
        if (drawable(p)) shown.append(p);
    r.series->replace(shown);
    fit_axes();
}

void ResultChart::set_published(const std::vector<exp::PublishedPoint>& points) {
    published_points_.clear();
    QStringList sources;
    for (const auto& p : points) {
        published_points_.append({p.x, p.value});
        sources << QString::fromStdString(p.label);
    }
    published_->setName(sources.isEmpty() ? "published" : "published (" + sources.join("; ") + ")");
    published_->setVisible(!points.empty());
    redraw();
}

void ResultChart::set_fit(int run, const QList<QPointF>& curve, const QString& label) {
    auto& r = runs_.at(size_t(run));
    r.fit_points = curve;
    if (!r.fit) {
        r.fit = new QLineSeries;
        QPen pen(r.series->color());
        pen.setStyle(Qt::DashLine);
        pen.setWidthF(1.5);
        r.fit->setPen(pen);
        chart()->addSeries(r.fit);
        for (auto* axis : chart()->axes()) r.fit->attachAxis(axis);
    }
    r.fit->setName(label);
    r.fit->setVisible(!curve.isEmpty());
    redraw();
}

QList<QPointF> ResultChart::fit_drawn(int run) const {
    const auto& r = runs_.at(size_t(run));
    return r.fit ? r.fit->points() : QList<QPointF>{};
}

void ResultChart::clear_runs() {
    for (auto& r : runs_) {
        chart()->removeSeries(r.series);
        delete r.series;
        if (r.fit) {
            chart()->removeSeries(r.fit);
            delete r.fit;
        }
    }
    runs_.clear();
    set_published({});
}

QList<QPointF> ResultChart::drawn(int run) const { return runs_.at(size_t(run)).series->points(); }
int ResultChart::published_drawn() const { return int(published_->count()); }

void ResultChart::set_axes(const QString& x_title, const QString& y_title, bool log_x, bool log_y) {
    x_title_ = x_title;
    y_title_ = y_title;
    log_x_ = log_x;
    log_y_ = log_y;
    for (auto* axis : chart()->axes()) {
        chart()->removeAxis(axis);
        delete axis;
    }
    auto make = [](bool log, int base, const QString& title) -> QAbstractAxis* {
        if (log) {
            auto* a = new QLogValueAxis;
            a->setBase(base);
            a->setLabelFormat("%g");
            a->setMinorTickCount(-1);
            a->setTitleText(title);
            return a;
        }
        auto* a = new QValueAxis;
        a->setLabelFormat("%g");
        a->setTitleText(title);
        return a;
    };
    chart()->addAxis(make(log_x_, 2, x_title_), Qt::AlignBottom);
    chart()->addAxis(make(log_y_, 10, y_title_), Qt::AlignLeft);
    for (auto* s : chart()->series())
        for (auto* axis : chart()->axes()) s->attachAxis(axis);
    redraw();
}

void ResultChart::redraw() {
    for (int i = 0; i < runs(); ++i) {
        replace(i, runs_[size_t(i)].points);
        if (QLineSeries* fit = runs_[size_t(i)].fit) {
            QList<QPointF> shown;
            for (const auto& p : runs_[size_t(i)].fit_points)
                if (drawable(p)) shown.append(p);
            fit->replace(shown);
        }
    }
    QList<QPointF> shown;
    for (const auto& p : published_points_)
        if (drawable(p)) shown.append(p);
    published_->replace(shown);
    fit_axes();
}

void ResultChart::fit_axes() {
    double x0 = std::numeric_limits<double>::infinity(), x1 = -x0, y0 = x0, y1 = -x0;
    auto take = [&](const QList<QPointF>& ps) {
        for (const auto& p : ps) {
            x0 = std::min(x0, p.x()), x1 = std::max(x1, p.x());
            y0 = std::min(y0, p.y()), y1 = std::max(y1, p.y());
        }
    };
    for (const auto& r : runs_) take(r.series->points());
    take(published_->points());
    if (!std::isfinite(x0)) return;  // nothing drawn yet
    // Room around the points: a factor on a log axis, a fraction of the span on a linear one.
    auto pad = [](double& lo, double& hi, bool log) {
        if (log) {
            lo /= 1.5, hi *= 1.5;
        } else {
            const double span = hi > lo ? hi - lo : std::max(1.0, std::abs(hi));
            lo -= span * 0.05, hi += span * 0.05;
        }
    };
    pad(x0, x1, log_x_);
    pad(y0, y1, log_y_);
    const auto horizontal = chart()->axes(Qt::Horizontal), vertical = chart()->axes(Qt::Vertical);
    if (!horizontal.isEmpty()) horizontal.first()->setRange(x0, x1);
    if (!vertical.isEmpty()) {
        // Within two decades, powers of ten leave the axis almost unlabelled: powers of two then.
        if (auto* log = qobject_cast<QLogValueAxis*>(vertical.first())) log->setBase(y1 / y0 < 100 ? 2 : 10);
        vertical.first()->setRange(y0, y1);
    }
}

}  // namespace niclab::gui
