#pragma once
// The workbench window: the cluster is chosen once at the top, and each tab works on
// it (the system view, the message injector, the experiment runner, the traces).
#include <QMainWindow>

class QLabel;
class QTabWidget;

namespace niclab::gui {

class ExperimentPanel;
class InjectorPanel;
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
    InjectorPanel* injector() const { return injector_; }
    QLabel* sim_status() const { return sim_status_; }
    QTabWidget* tabs() const { return tabs_; }

private:
    SpecPicker* spec_;
    QTabWidget* tabs_;
    ExperimentPanel* experiments_;
    SystemView* system_;
    TraceView* traces_;
    InjectorPanel* injector_;
    QLabel* sim_status_;
};

}  // namespace niclab::gui
