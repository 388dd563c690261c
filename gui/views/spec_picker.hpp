#pragma once
// Where the cluster is chosen for everything in the window: preset (grouped by
// system), node count, topology, seed, or a spec file that replaces them.
#include <QWidget>

#include "model/spec_choice.hpp"

class QComboBox;
class QSpinBox;
class QLabel;
class QPushButton;

namespace niclab::gui {

class SpecPicker : public QWidget {
    Q_OBJECT
public:
    explicit SpecPicker(QWidget* parent = nullptr);
    SpecChoice choice() const;
    // For tests and the command line: use this file as the spec (empty: the fields).
    void set_spec_file(const QString& path);
    void set_preset(const QString& name);
    void set_nodes(int nodes);
    void set_topology(const QString& text);  // as typed into its field; empty: the system's default

signals:
    void changed();

private:
    QComboBox* preset_;
    QSpinBox* nodes_;
    QComboBox* topology_;
    QSpinBox* seed_;
    QLabel* file_;
    QPushButton* clear_;
    QString spec_file_;
};

}  // namespace niclab::gui
