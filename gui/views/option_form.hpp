#pragma once
// An experiment's options as a form, built from what the experiment itself reads
// (exp::describe_options): each field shows its unit and, greyed, its default; a
// field left empty takes the default. Text options with fixed values are a list.
#include <map>
#include <string>
#include <vector>

#include <QWidget>
#include <nlohmann/json.hpp>

#include "niclab/exp/options.hpp"

class QFormLayout;

namespace niclab::gui {

class OptionForm : public QWidget {
    Q_OBJECT
public:
    explicit OptionForm(QWidget* parent = nullptr);
    void set_experiment(const std::string& experiment);  // rebuilds the fields
    // The options given (empty fields left out). Throws InputError naming the option.
    nlohmann::json options() const;
    // Sets a field's text (or choice) by option key; false if there is no such field.
    bool set_value(const std::string& key, const QString& text);
    const std::vector<exp::OptionInfo>& described() const { return described_; }

private:
    QFormLayout* form_;
    std::vector<exp::OptionInfo> described_;
    std::map<std::string, QWidget*> fields_;
};

}  // namespace niclab::gui
