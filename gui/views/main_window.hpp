#pragma once
// The workbench window: the cluster is chosen once at the top, and each tab works on
// it (the experiment runner; the system view).
#include <QMainWindow>

class QLabel;
class QTabWidget;

namespace niclab::gui {

class ExperimentPanel;
class SpecPicker;
class SystemView;
class TraceView;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    SpecPicker* spec() const { return spec_; }
    ExperimentPanel* experiments() const { return experiments_; }
    SystemView* system_view() const { return system_; }
    TraceView* trace_view() const { return traces_; }
    QLabel* sim_status() const { return sim_status_; }
    QTabWidget* tabs() const { return tabs_; }

private:
    SpecPicker* spec_;
    QTabWidget* tabs_;
    ExperimentPanel* experiments_;
    SystemView* system_;
    TraceView* traces_;
    QLabel* sim_status_;
};

}  // namespace niclab::gui
