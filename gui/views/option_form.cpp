#include "views/option_form.hpp"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>

#include "model/option_values.hpp"
#include "niclab/exp/experiments.hpp"

namespace niclab::gui {

namespace {

QString label_for(const exp::OptionInfo& o) {
    QString unit = QString::fromStdString(o.unit == "us" ? "µs" : o.unit);
    return QString::fromStdString(o.key) + (unit.isEmpty() ? "" : " (" + unit + ")");
}

QString tooltip_for(const exp::OptionInfo& o) {
    QString t = QString::fromStdString(o.kind);
    const std::string d = option_default_text(o);
    t += d.empty() ? QString(", default: planned by the experiment") : ", default: " + QString::fromStdString(d);
    if (o.max) t += QString(", at most %1").arg(qulonglong(*o.max));
    if (o.kind.ends_with("list")) t += "; comma-separated";
    if (o.unit == "B") t += "; sizes may say 64K, 8M";
    return t;
}

}  // namespace

OptionForm::OptionForm(QWidget* parent) : QWidget(parent), form_(new QFormLayout(this)) {
    form_->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
}

void OptionForm::set_experiment(const std::string& experiment) {
    while (form_->rowCount()) form_->removeRow(0);
    fields_.clear();
    try {
        described_ = exp::describe_options(experiment);
    } catch (const std::exception& e) {
        // No form then: the experiment still runs with its defaults, and the reason shows.
        described_.clear();
        auto* why = new QLabel(QString::fromUtf8(e.what()));
        why->setWordWrap(true);
        form_->addRow(why);
        return;
    }
    for (const auto& o : described_) {
        QWidget* field;
        if (o.kind == "text" && !o.allowed.empty()) {
            auto* box = new QComboBox;
            for (const auto& a : o.allowed) box->addItem(QString::fromStdString(a));
            box->setCurrentText(QString::fromStdString(option_default_text(o)));
            field = box;
        } else {
            auto* edit = new QLineEdit;
            const std::string d = option_default_text(o);
            // No default value: the system's own (a transport, an op) or the experiment's plan (sizes).
            edit->setPlaceholderText(d.empty() ? QString(o.kind == "text" ? "(the system's)" : "(planned)")
                                               : QString::fromStdString(d));
            field = edit;
        }
        field->setObjectName(QString::fromStdString("option_" + o.key));
        field->setToolTip(tooltip_for(o));
        form_->addRow(label_for(o), field);
        fields_[o.key] = field;
    }
}

nlohmann::json OptionForm::options() const {
    nlohmann::json j = nlohmann::json::object();
    for (const auto& o : described_) {
        const QWidget* w = fields_.at(o.key);
        if (const auto* box = qobject_cast<const QComboBox*>(w)) {
            // A fixed choice left at its default is not sent, so Result::params are
            // exactly what the CLI's would be for the same command.
            const std::string v = box->currentText().toStdString();
            if (v != option_default_text(o)) j[o.key] = v;
        } else if (const auto* edit = qobject_cast<const QLineEdit*>(w)) {
            const nlohmann::json v = option_value(o, edit->text().toStdString());
            if (!v.is_null()) j[o.key] = v;
        }
    }
    return j;
}

bool OptionForm::set_value(const std::string& key, const QString& text) {
    auto it = fields_.find(key);
    if (it == fields_.end()) return false;
    if (auto* box = qobject_cast<QComboBox*>(it->second)) box->setCurrentText(text);
    else if (auto* edit = qobject_cast<QLineEdit*>(it->second)) edit->setText(text);
    return true;
}

}  // namespace niclab::gui
