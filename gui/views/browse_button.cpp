#include "views/browse_button.hpp"

#include <QFileDialog>
#include <QLineEdit>
#include <QPushButton>

namespace niclab::gui {

QPushButton* browse_button(const QString& text, QLineEdit* field, const QString& title, const QString& filter) {
    auto* button = new QPushButton(text);
    QObject::connect(button, &QPushButton::clicked, field, [field, title, filter] {
        const QString f = QFileDialog::getOpenFileName(field, title, {}, filter);
        if (!f.isEmpty()) field->setText(f);
    });
    return button;
}

}  // namespace niclab::gui
