#include "views/topology_scene.hpp"

#include <cmath>
#include <numbers>

#include <QBrush>
#include <QFont>
#include <QGraphicsLineItem>
#include <QGraphicsRectItem>
#include <QGraphicsSceneHelpEvent>
#include <QPainter>
#include <QPen>
#include <QStyleOptionGraphicsItem>
#include <QToolTip>

namespace niclab::gui {

namespace {

// A node is a box that holds its six lines of counters.
constexpr double kNodeW = 124, kNodeH = 88, kNodeRadius = 70;

QString percent(double fraction) {
    return fraction < 0 ? QString("–") : QString::number(100.0 * fraction, 'f', 1) + " %";
}

QString compact(uint64_t v) {
    if (v >= 10'000'000) return QString::number(double(v) / 1e6, 'f', 1) + "M";
    if (v >= 10'000) return QString::number(double(v) / 1e3, 'f', 1) + "k";
    return QString::number(v);
}

QString label_for(size_t n, const NodeView& v) {
    QString t = QString("node %1\n%2\n").arg(n).arg(to_string(v.state));
    t += "instr " + compact(v.counter("core.instructions")) + "\n";
    t += "I$ " + percent(v.hit_rate("core.icache_accesses", "core.icache_misses")) + "  D$ " +
         percent(v.hit_rate("core.dcache_accesses", "core.dcache_misses")) + "\n";
    t += "irq " + compact(v.counter("core.interrupts_taken") + v.counter("host.interrupts_taken")) + "  pkts " +
         compact(v.counter("net.tx_packets")) + "/" + compact(v.counter("net.rx_packets")) + "\n";
    t += "link " + percent(std::max(v.tx_utilization, v.rx_utilization));
    return t;
}

QString tooltip_for(const NodeView& v) {
    QString t;
    if (!v.reason.empty()) t += QString::fromStdString(v.reason) + "\n\n";
    if (v.counter_names)
        for (size_t i = 0; i < v.counter_names->size(); ++i)
            t += QString::fromStdString((*v.counter_names)[i]) + " = " + QString::number(v.counter_values[i]) + "\n";
    return t.trimmed();
}

// A node's label, written from the snapshot shown when it is painted: only the labels on
// screen are written, and a snapshot costs no text layout (each label's setText was most
// of a Red Storm refresh, 17 ms on the GUI thread). Left out where the drawing is too
// small to read it.
class NodeLabel : public QGraphicsItem {
public:
    NodeLabel(const TopologyScene& scene, size_t n, const QRectF& box) : scene_(scene), n_(n), box_(box) {
        font_.setPointSizeF(6.5);
    }
    QRectF boundingRect() const override { return box_; }
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) override {
        // Below this scale the 6.5 pt text is under 3 px high.
        if (option->levelOfDetailFromTransform(painter->worldTransform()) < 0.4) return;
        painter->setFont(font_);
        painter->setPen(scene_.node_colour(n_) == state_colour(NodeState::dead) ? Qt::white : Qt::black);
        painter->drawText(box_, Qt::AlignCenter, scene_.node_label(n_));
    }

private:
    const TopologyScene& scene_;
    size_t n_;
    QRectF box_;
    QFont font_;
};

}  // namespace

QColor state_colour(NodeState s) {
    switch (s) {
        case NodeState::booting: return QColor(240, 200, 80);
        case NodeState::running: return QColor(90, 190, 100);
        case NodeState::asleep: return QColor(150, 200, 230);
        case NodeState::halted: return QColor(170, 170, 170);
        case NodeState::faulted: return QColor(220, 60, 50);
        case NodeState::dead: return QColor(60, 60, 60);
        case NodeState::niu: return QColor(180, 160, 220);
    }
    return Qt::white;
}

TopologyScene::TopologyScene(QObject* parent) : QGraphicsScene(parent) {
    setBackgroundBrush(Qt::white);
    // A BSP index of fixed depth: Qt's own choice of depth for Red Storm's 70,000 items
    // took about a second to build at the first drawing (and five seconds once, so an
    // earlier stop had none), while without an index every paint of a window walked every
    // item (31 ms a refresh). Depth 10 builds in about 16 ms and paints a window in under
    // a millisecond (bench_snapshot); no item moves once drawn, so the index is built once.
    setItemIndexMethod(QGraphicsScene::BspTreeIndex);
    setBspTreeDepth(10);
}

QPointF TopologyScene::position(const Vertex& v, size_t nodes, uint32_t routers) const {
    const double ring = std::max(160.0, double(nodes) * 2.6 * kNodeRadius / (2 * std::numbers::pi));
    const size_t count = v.node ? nodes : routers;
    const double radius = v.node ? ring : ring * 0.45;
    if (count == 1) return v.node && routers == 0 ? QPointF(0, 0) : QPointF(0, v.node ? -radius : 0);
    // Nodes and the routers they hang off share angles, so cables stay short.
    const double angle = 2 * std::numbers::pi * double(v.id) / double(count) - std::numbers::pi / 2;
    return {radius * std::cos(angle), radius * std::sin(angle)};
}

void TopologyScene::rebuild(const SystemSnapshot& s) {
    clear();
    nodes_.clear();
    cables_.clear();
    utilization_.assign(s.cables.size(), -1);  // none drawn yet
    auto tag = [](QGraphicsItem* item, Kind kind, size_t index) {
        item->setData(kKind, int(kind));
        item->setData(kIndex, qulonglong(index));
    };
    for (size_t i = 0; i < s.cables.size(); ++i) {
        const Cable& c = s.cables[i];
        auto* line = addLine(QLineF(position(c.a, s.nodes.size(), s.routers), position(c.b, s.nodes.size(), s.routers)));
        line->setZValue(-1);
        tag(line, kCable, i);
        cables_.push_back(line);
    }
    for (uint32_t r = 0; r < s.routers; ++r) {
        const QPointF p = position({false, r}, s.nodes.size(), s.routers);
        tag(addRect(p.x() - 9, p.y() - 9, 18, 18, QPen(Qt::darkGray), QBrush(QColor(230, 230, 230))), kRouter, r);
    }
    for (size_t n = 0; n < s.nodes.size(); ++n) {
        const QPointF p = position({true, uint32_t(n)}, s.nodes.size(), s.routers);
        auto* disc = addRect(p.x() - kNodeW / 2, p.y() - kNodeH / 2, kNodeW, kNodeH, QPen(Qt::black));
        auto* label = new NodeLabel(*this, n, disc->rect());
        addItem(label);
        tag(disc, kNode, n);
        tag(label, kNode, n);
        nodes_.push_back(disc);
    }
    shape_nodes_ = s.nodes.size();
    shape_routers_ = s.routers;
    shape_cables_ = s.cables.size();
    setSceneRect(itemsBoundingRect().adjusted(-20, -20, 20, 20));
}

void TopologyScene::show(const SystemSnapshot& s) {
    if (s.nodes.size() != shape_nodes_ || s.routers != shape_routers_ || s.cables.size() != shape_cables_) rebuild(s);
    shown_ = &s;
    for (size_t n = 0; n < s.nodes.size(); ++n) {
        const QColor fill = state_colour(s.nodes[n].state);
        if (nodes_[n]->brush().color() != fill) nodes_[n]->setBrush(fill);
    }
    update();  // the labels on screen are written again from this snapshot
    for (size_t i = 0; i < s.cables.size(); ++i) {
        const double u = s.cables[i].utilization;
        if (u == utilization_[i]) continue;
        utilization_[i] = u;
        // Grey when quiet, towards red and thicker as the cable fills.
        cables_[i]->setPen(QPen(QColor(int(120 + 135 * u), int(120 * (1 - u)), int(120 * (1 - u))), 1.5 + 6 * u));
    }
}

QString TopologyScene::tooltip_at(const QPointF& scene_pos) const {
    for (const QGraphicsItem* item : items(scene_pos)) {
        const QVariant kind = item->data(kKind);
        if (!kind.isValid() || !shown_) continue;
        const size_t i = item->data(kIndex).toULongLong();
        switch (Kind(kind.toInt())) {
            case kNode: return i < shown_->nodes.size() ? tooltip_for(shown_->nodes[i]) : QString();
            case kRouter: return QString("router %1").arg(i);
            case kCable:
                return i < shown_->cables.size() ? QString("utilization %1").arg(percent(shown_->cables[i].utilization))
                                                 : QString();
        }
    }
    return {};
}

void TopologyScene::helpEvent(QGraphicsSceneHelpEvent* event) {
    const QString text = tooltip_at(event->scenePos());
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->screenPos(), text);
    event->setAccepted(!text.isEmpty());
}

QString TopologyScene::node_label(size_t n) const {
    return shown_ && n < shown_->nodes.size() ? label_for(n, shown_->nodes[n]) : QString();
}
QColor TopologyScene::node_colour(size_t n) const { return nodes_.at(n)->brush().color(); }
QPointF TopologyScene::node_centre(size_t n) const { return nodes_.at(n)->rect().center(); }

}  // namespace niclab::gui
