#pragma once
// A "…" button that fills a path field from a file dialog (an ELF, a C source): the
// field stays editable, the button only saves typing.
class QLineEdit;
class QPushButton;
class QString;

namespace niclab::gui {

QPushButton* browse_button(const QString& text, QLineEdit* field, const QString& title, const QString& filter);

}  // namespace niclab::gui
