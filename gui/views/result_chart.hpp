#pragma once
// The experiment plot: one line per run (several runs overlaid, with a legend), the
// system's published points as stars, log or linear axes. It holds the points it was
// given and redraws from them when an axis changes; it knows nothing of experiments.
#include <vector>

#include <QChartView>
#include <QList>
#include <QPointF>

#include "niclab/exp/published_points.hpp"

class QLineSeries;
class QScatterSeries;

namespace niclab::gui {

class ResultChart : public QChartView {
    Q_OBJECT
public:
    explicit ResultChart(QWidget* parent = nullptr);

    int add_run(const QString& label);  // returns the run's index
    void append(int run, QPointF point);
    void replace(int run, const QList<QPointF>& points);
    void set_published(const std::vector<exp::PublishedPoint>& points);
    // The run's fitted model (exp::fitted_curve) as a dashed line in the run's colour;
    // empty: none.
    void set_fit(int run, const QList<QPointF>& curve, const QString& label);
    void set_axes(const QString& x_title, const QString& y_title, bool log_x, bool log_y);
    void clear_runs();

    int runs() const { return int(runs_.size()); }
    // What the run's line shows (points that cannot sit on a log axis are left out).
    QList<QPointF> drawn(int run) const;
    int published_drawn() const;
    QList<QPointF> fit_drawn(int run) const;

private:
    struct Run {
        QList<QPointF> points;
        QLineSeries* series;
        QList<QPointF> fit_points;
        QLineSeries* fit = nullptr;  // made with the first fit
    };
    bool drawable(QPointF p) const;
    void redraw();
    void fit_axes();

    std::vector<Run> runs_;
    QScatterSeries* published_;
    QList<QPointF> published_points_;
    bool log_x_ = true, log_y_ = true;
    QString x_title_, y_title_;
};

}  // namespace niclab::gui
