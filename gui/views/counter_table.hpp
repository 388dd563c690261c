#pragma once
// The system view's table of counters: a row per counter (by name, as the core names
// them, after a row of node states), a column per node. A model over the snapshot the
// view shows, so the table view asks only for the cells on screen: a table item per
// cell was 40 rows by 10,368 columns for Red Storm, made again at every snapshot.
#include <string>
#include <vector>

#include <QAbstractTableModel>

#include "model/system_snapshot.hpp"

namespace niclab::gui {

class CounterTable : public QAbstractTableModel {
    Q_OBJECT
public:
    using QAbstractTableModel::QAbstractTableModel;
    // The snapshot to show from now on; it must live until the next call (the view's own).
    void show(const SystemSnapshot& s);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    const SystemSnapshot* shown_ = nullptr;
    size_t nodes_ = 0;
    std::vector<std::string> names_;  // every counter any node has, in the order first met
};

}  // namespace niclab::gui
