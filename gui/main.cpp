// niclab-gui: the desktop workbench over the C++ core (`niclab gui`, `make gui`).
#include <QApplication>
#include <QCommandLineParser>

#include "views/main_window.hpp"
#include "views/spec_picker.hpp"

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName("niclab-gui");
    QCommandLineParser args;
    args.setApplicationDescription("niclab workbench: systems, experiments and traces over the simulator core");
    args.addHelpOption();
    args.addOption({"spec", "Start with this system spec file (JSON).", "file"});
    args.process(app);

    niclab::gui::MainWindow window;
    if (args.isSet("spec")) window.spec()->set_spec_file(args.value("spec"));
    window.show();
    return app.exec();
}
