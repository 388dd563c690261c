#pragma once
// Trace records of every node on one time axis: a lane per node, a tick per record.
// The wheel zooms the time axis (around the pointer), dragging pans, a click selects
// the record under the pointer.
#include <vector>

#include <QGraphicsView>

#include "model/trace_set.hpp"

class QGraphicsLineItem;

namespace niclab::gui {

class TraceTimeline : public QGraphicsView {
    Q_OBJECT
public:
    explicit TraceTimeline(QWidget* parent = nullptr);
    // `shown`: indexes into rows, in time order.
    void show_rows(const std::vector<TraceRow>& rows, const std::vector<size_t>& shown);
    void mark(size_t row);  // the selected record (an index into rows)

signals:
    void picked(size_t row);

protected:
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;

private:
    double x_of(double t_ns) const;
    std::vector<std::pair<double, size_t>> ticks_;  // scene x, row
    std::vector<uint32_t> lanes_;                   // node of each lane
    double t0_ = 0, scale_ = 1;                     // scene x = (t - t0) * scale
    QGraphicsLineItem* marker_ = nullptr;
    double lane_height_ = 28;
};

}  // namespace niclab::gui
