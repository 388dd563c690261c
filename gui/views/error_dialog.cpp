#include "views/error_dialog.hpp"

#include <QMessageBox>
#include <QPushButton>

#include "views/source_view.hpp"

namespace niclab::gui {

QMessageBox* show_error(QWidget* parent, const QString& title, const QString& text, const QString& source, int line) {
    auto* box = new QMessageBox(QMessageBox::Critical, title, text, QMessageBox::Ok, parent);
    box->setObjectName("errorDialog");
    box->setAttribute(Qt::WA_DeleteOnClose);
    // Long reports (a fault's last trace records) keep their columns.
    box->setTextFormat(Qt::PlainText);
    box->setEscapeButton(QMessageBox::Ok);  // closing it (Esc, the title bar) is OK, whatever else it offers
    if (!source.isEmpty()) {
        QPushButton* show = box->addButton("Show source", QMessageBox::ActionRole);
        show->setObjectName("showSource");
        QObject::connect(show, &QPushButton::clicked, box, [parent, source, line] { open_source(parent, source, line); });
    }
    box->open();
    return box;
}

}  // namespace niclab::gui
