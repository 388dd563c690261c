#include "views/error_dialog.hpp"

#include <QMessageBox>

namespace niclab::gui {

QMessageBox* show_error(QWidget* parent, const QString& title, const QString& text) {
    auto* box = new QMessageBox(QMessageBox::Critical, title, text, QMessageBox::Ok, parent);
    box->setObjectName("errorDialog");
    box->setAttribute(Qt::WA_DeleteOnClose);
    // Long reports (a fault's last trace records) keep their columns.
    box->setTextFormat(Qt::PlainText);
    box->open();
    return box;
}

}  // namespace niclab::gui
