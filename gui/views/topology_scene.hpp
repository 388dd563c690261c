#pragma once
// The drawing of a cluster: nodes on an outer ring, routers on an inner one, cables
// between them. Each node is coloured by its state and labelled with its live
// counters; a cable's width and colour show its recent utilization. Redrawn from a
// SystemSnapshot; it never reads the simulation.
#include <vector>

#include <QGraphicsScene>

#include "model/system_snapshot.hpp"

class QGraphicsLineItem;
class QGraphicsRectItem;
class QGraphicsSimpleTextItem;

namespace niclab::gui {

class TopologyScene : public QGraphicsScene {
    Q_OBJECT
public:
    explicit TopologyScene(QObject* parent = nullptr);
    void show(const SystemSnapshot& s);  // rebuilds the items when the shape changed

    // The label drawn on node `n` (for tests: what the user reads).
    QString node_label(size_t n) const;
    QColor node_colour(size_t n) const;

private:
    struct NodeItem {
        QGraphicsRectItem* disc;
        QGraphicsSimpleTextItem* label;
    };
    void rebuild(const SystemSnapshot& s);
    QPointF position(const Vertex& v, size_t nodes, uint32_t routers) const;

    std::vector<NodeItem> nodes_;
    std::vector<QGraphicsLineItem*> cables_;
    size_t shape_nodes_ = 0;
    uint32_t shape_routers_ = 0;
    size_t shape_cables_ = 0;
};

QColor state_colour(NodeState s);

}  // namespace niclab::gui
