#include "views/main_window.hpp"

#include <QLabel>
#include <QStatusBar>
#include <QTabWidget>
#include <QVBoxLayout>

#include "views/experiment_panel.hpp"
#include "views/injector_panel.hpp"
#include "views/spec_picker.hpp"
#include "views/system_view.hpp"
#include "views/trace_view.hpp"

namespace niclab::gui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowTitle("niclab workbench");
    auto* central = new QWidget;
    auto* v = new QVBoxLayout(central);
    v->setContentsMargins(0, 0, 0, 0);
    spec_ = new SpecPicker;
    tabs_ = new QTabWidget;
    system_ = new SystemView(spec_);
    experiments_ = new ExperimentPanel(spec_);
    tabs_->addTab(system_, "System");
    injector_ = new InjectorPanel(system_);
    tabs_->addTab(injector_, "Messages");
    tabs_->addTab(experiments_, "Experiments");
    traces_ = new TraceView;
    tabs_->addTab(traces_, "Traces");
    v->addWidget(spec_);
    v->addWidget(tabs_, 1);
    setCentralWidget(central);
    sim_status_ = new QLabel;
    sim_status_->setObjectName("simStatus");
    statusBar()->addPermanentWidget(sim_status_);
    connect(system_, &SystemView::status, sim_status_, &QLabel::setText);
    resize(1200, 760);
}

}  // namespace niclab::gui
