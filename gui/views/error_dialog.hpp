#pragma once
// Bad input and failed runs end here: a dialog that says what is wrong, in the core's
// own words (which name the key, file, option or faulting PC). It is opened, not
// exec'd, so no nested event loop runs while a simulation thread reports.
#include <QString>

class QWidget;
class QMessageBox;

namespace niclab::gui {

// With a source file and line (a fault's PC), the dialog offers "Show source".
QMessageBox* show_error(QWidget* parent, const QString& title, const QString& text, const QString& source = {},
                        int line = 0);

}  // namespace niclab::gui
