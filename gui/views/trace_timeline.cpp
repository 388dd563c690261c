#include "views/trace_timeline.hpp"

#include <algorithm>

#include <QGraphicsLineItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QMouseEvent>
#include <QWheelEvent>

namespace niclab::gui {

namespace {
constexpr double kWidth = 1000;  // scene units the whole trace spans at zoom 1
}

TraceTimeline::TraceTimeline(QWidget* parent) : QGraphicsView(new QGraphicsScene, parent) {
    scene()->setParent(this);
    setDragMode(QGraphicsView::ScrollHandDrag);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    setRenderHint(QPainter::Antialiasing, false);
    setMinimumHeight(90);
}

double TraceTimeline::x_of(double t_ns) const { return (t_ns - t0_) * scale_; }

void TraceTimeline::show_rows(const std::vector<TraceRow>& rows, const std::vector<size_t>& shown) {
    scene()->clear();
    marker_ = nullptr;
    ticks_.clear();
    lanes_.clear();
    for (size_t i : shown)
        if (std::find(lanes_.begin(), lanes_.end(), rows[i].node) == lanes_.end()) lanes_.push_back(rows[i].node);
    std::sort(lanes_.begin(), lanes_.end());
    if (shown.empty()) return;
    t0_ = rows[shown.front()].t_ns;
    const double span = std::max(1.0, rows[shown.back()].t_ns - t0_);
    scale_ = kWidth / span;
    for (size_t l = 0; l < lanes_.size(); ++l) {
        const double y = double(l) * lane_height_;
        scene()->addLine(0, y + lane_height_ / 2, kWidth, y + lane_height_ / 2, QPen(QColor(220, 220, 220), 0));
        auto* label = scene()->addSimpleText(QString("node %1").arg(lanes_[l]));
        label->setFlag(QGraphicsItem::ItemIgnoresTransformations);  // readable at any zoom
        label->setPos(-60, y + 4);
    }
    const QPen tick(QColor(40, 90, 170), 0);  // cosmetic: one pixel at any zoom
    for (size_t i : shown) {
        const size_t lane = size_t(std::find(lanes_.begin(), lanes_.end(), rows[i].node) - lanes_.begin());
        const double x = x_of(rows[i].t_ns), y = double(lane) * lane_height_;
        scene()->addLine(x, y + 4, x, y + lane_height_ - 4, tick);
        ticks_.push_back({x, i});
    }
    scene()->setSceneRect(-70, -4, kWidth + 90, double(lanes_.size()) * lane_height_ + 8);
    resetTransform();
    fitInView(scene()->sceneRect(), Qt::IgnoreAspectRatio);
}

void TraceTimeline::mark(size_t row) {
    auto it = std::find_if(ticks_.begin(), ticks_.end(), [&](const auto& t) { return t.second == row; });
    if (it == ticks_.end()) return;
    if (!marker_) {
        marker_ = scene()->addLine(0, -4, 0, double(lanes_.size()) * lane_height_ + 4, QPen(QColor(220, 40, 40), 0));
        marker_->setZValue(1);
    }
    marker_->setPos(it->first, 0);
    ensureVisible(marker_, 20, 0);
}

void TraceTimeline::wheelEvent(QWheelEvent* event) {
    // Only time zooms: lanes keep their height.
    const double factor = event->angleDelta().y() > 0 ? 1.25 : 0.8;
    scale(factor, 1.0);
    event->accept();
}

void TraceTimeline::mousePressEvent(QMouseEvent* event) {
    QGraphicsView::mousePressEvent(event);
    if (ticks_.empty() || event->button() != Qt::LeftButton) return;
    const double x = mapToScene(event->position().toPoint()).x();
    // The nearest tick, within a few pixels at the current zoom.
    auto it = std::lower_bound(ticks_.begin(), ticks_.end(), std::pair<double, size_t>{x, 0});
    std::vector<decltype(it)> near;
    if (it != ticks_.end()) near.push_back(it);
    if (it != ticks_.begin()) near.push_back(std::prev(it));
    const double reach = 4.0 / std::max(1e-9, transform().m11());
    for (auto n : near)
        if (std::abs(n->first - x) <= reach) {
            emit picked(n->second);
            return;
        }
}

}  // namespace niclab::gui
