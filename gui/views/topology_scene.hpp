#pragma once
// The drawing of a cluster: nodes on an outer ring, routers on an inner one, cables
// between them. Each node is coloured by its state and labelled with its live
// counters; a cable's width and colour show its recent utilization. Redrawn from a
// SystemSnapshot; it never reads the simulation. A snapshot changes only the items whose
// look it changes, and a label or a tooltip is written when it is painted or asked for:
// Red Storm's drawing has some 70,000 items, and each snapshot's tooltips for all of them
// held the window up.
#include <vector>

#include <QGraphicsScene>

#include "model/system_snapshot.hpp"

class QGraphicsLineItem;
class QGraphicsRectItem;

namespace niclab::gui {

class TopologyScene : public QGraphicsScene {
    Q_OBJECT
public:
    explicit TopologyScene(QObject* parent = nullptr);
    // Rebuilds the items when the shape changed. `s` must live until the next call (the
    // view's own snapshot): tooltips read it.
    void show(const SystemSnapshot& s);

    // The label drawn on node `n` (for tests: what the user reads).
    QString node_label(size_t n) const;
    QColor node_colour(size_t n) const;
    QPointF node_centre(size_t n) const;
    // The tooltip of the topmost item at `scene_pos` ("" over nothing): a node's counters
    // (and why it faulted or died), a router's number, a cable's utilization.
    QString tooltip_at(const QPointF& scene_pos) const;

protected:
    void helpEvent(QGraphicsSceneHelpEvent* event) override;

private:
    void rebuild(const SystemSnapshot& s);
    QPointF position(const Vertex& v, size_t nodes, uint32_t routers) const;

    // What an item is, in its data (kKind, kIndex), for its tooltip.
    enum Kind { kNode, kRouter, kCable };
    static constexpr int kKind = 0, kIndex = 1;

    const SystemSnapshot* shown_ = nullptr;
    // Each node's box; its label is an item of its own that reads the shown snapshot when
    // painted (topology_scene.cpp: NodeLabel), so nothing here points at it.
    std::vector<QGraphicsRectItem*> nodes_;
    std::vector<QGraphicsLineItem*> cables_;
    std::vector<double> utilization_;  // per cable, as last drawn
    size_t shape_nodes_ = 0;
    uint32_t shape_routers_ = 0;
    size_t shape_cables_ = 0;
};

QColor state_colour(NodeState s);

}  // namespace niclab::gui
