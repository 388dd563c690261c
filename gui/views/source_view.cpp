#include "views/source_view.hpp"

#include <QDialog>
#include <QFile>
#include <QTextBlock>
#include <QVBoxLayout>

namespace niclab::gui {

SourceView::SourceView(QWidget* parent) : QPlainTextEdit(parent) {
    setReadOnly(true);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    QFont mono("monospace");
    mono.setStyleHint(QFont::Monospace);
    setFont(mono);
}

bool SourceView::show_at(const QString& path, int line) {
    if (path != path_) {
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly)) {
            clear();
            path_.clear();
            line_ = 0;
            return false;
        }
        setPlainText(QString::fromUtf8(f.readAll()));
        path_ = path;
    }
    line_ = line;
    const QTextBlock block = document()->findBlockByLineNumber(line - 1);
    QTextEdit::ExtraSelection mark;
    mark.format.setBackground(QColor(255, 236, 150));
    mark.format.setProperty(QTextFormat::FullWidthSelection, true);
    mark.cursor = QTextCursor(block);
    setExtraSelections({mark});
    setTextCursor(QTextCursor(block));
    centerCursor();
    return true;
}

QDialog* open_source(QWidget* parent, const QString& path, int line) {
    auto* dialog = new QDialog(parent);
    dialog->setObjectName("sourceDialog");
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(QString("%1:%2").arg(path).arg(line));
    auto* view = new SourceView;
    view->show_at(path, line);
    auto* v = new QVBoxLayout(dialog);
    v->addWidget(view);
    dialog->resize(760, 520);
    dialog->show();
    return dialog;
}

}  // namespace niclab::gui
