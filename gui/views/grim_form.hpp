#pragma once
// The message injector's GRIM form: an active message to a handler, an RM-P or RM-V
// write with its notification word, an RM read, or a multicast to a group, composed
// for GRIM's host library (model/grim_injection.hpp). Only the fields the chosen
// operation uses are enabled; a system that is not GRIM says so in place of the form.
#include <QGroupBox>

#include "model/grim_injection.hpp"

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace niclab::gui {

struct SystemSnapshot;

class GrimForm : public QGroupBox {
    Q_OBJECT
public:
    explicit GrimForm(QWidget* parent = nullptr);

    // The message the fields describe; InputError naming the field that is not valid.
    GrimMessage message() const;
    QPushButton* send_button() const { return send_; }
    // Enabled on a built GRIM cluster; elsewhere the reason in place of the form.
    void refresh(const SystemSnapshot& s);

private:
    void show_fields();  // those the chosen operation uses

    QComboBox *op_, *memory_;
    QSpinBox *sender_, *target_, *bytes_, *offset_;
    QLineEdit *members_, *group_, *handler_, *args_, *notify_, *pattern_;
    QPushButton* send_;
    QWidget* form_;
    QLabel* unsupported_;
};

}  // namespace niclab::gui
