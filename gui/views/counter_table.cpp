#include "views/counter_table.hpp"

#include <unordered_set>

#include <QBrush>

#include "views/topology_scene.hpp"

namespace niclab::gui {

void CounterTable::show(const SystemSnapshot& s) {
    // Nodes share their list of names where their counters are alike: each list is
    // read once (by Red Storm's snapshot, one list for 10,368 nodes).
    std::vector<std::string> names;
    std::unordered_set<std::string> seen;
    std::unordered_set<const std::vector<std::string>*> lists;
    for (const NodeView& node : s.nodes)
        if (node.counter_names && lists.insert(node.counter_names.get()).second)
            for (const std::string& name : *node.counter_names)
                if (seen.insert(name).second) names.push_back(name);
    // The last snapshot may be gone already: its shape is kept apart.
    const bool reshaped = names != names_ || s.nodes.size() != nodes_;
    if (reshaped) beginResetModel();
    shown_ = &s;
    nodes_ = s.nodes.size();
    names_ = std::move(names);
    if (reshaped) {
        endResetModel();
    } else if (!s.nodes.empty()) {
        emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
    }
}

int CounterTable::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(names_.size()) + 1; }

int CounterTable::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(nodes_);
}

QVariant CounterTable::data(const QModelIndex& index, int role) const {
    if (!shown_ || !index.isValid() || size_t(index.column()) >= shown_->nodes.size()) return {};
    const NodeView& node = shown_->nodes[size_t(index.column())];
    if (index.row() == 0) {  // the node's state, coloured as in the drawing
        if (role == Qt::DisplayRole) return QString(to_string(node.state));
        if (role == Qt::BackgroundRole) return QBrush(state_colour(node.state));
        if (role == Qt::ToolTipRole && !node.reason.empty()) return QString::fromStdString(node.reason);
        return {};
    }
    if (role != Qt::DisplayRole || size_t(index.row()) > names_.size()) return {};
    return QString::number(node.counter(names_[size_t(index.row()) - 1]));
}

QVariant CounterTable::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole || section < 0) return {};
    if (orientation == Qt::Horizontal) return QString("node %1").arg(section);
    if (section == 0) return QString("state");
    return size_t(section) <= names_.size() ? QString::fromStdString(names_[size_t(section) - 1]) : QVariant();
}

}  // namespace niclab::gui
