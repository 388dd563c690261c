#pragma once
// A firmware source file shown at one line (highlighted, centred): the trace viewer's
// source pane, and the window a fault's "Show source" opens.
#include <QPlainTextEdit>

class QDialog;

namespace niclab::gui {

class SourceView : public QPlainTextEdit {
    Q_OBJECT
public:
    explicit SourceView(QWidget* parent = nullptr);
    // False (and the view cleared) when the file cannot be read.
    bool show_at(const QString& path, int line);
    QString path() const { return path_; }
    int line() const { return line_; }  // 1-based; 0 when none

private:
    QString path_;
    int line_ = 0;
};

// A window with the file at `line`; it closes itself.
QDialog* open_source(QWidget* parent, const QString& path, int line);

}  // namespace niclab::gui
