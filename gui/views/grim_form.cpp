#include "views/grim_form.hpp"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QVBoxLayout>

#include "model/system_snapshot.hpp"
#include "niclab/fw/grim_fw.h"
#include "views/form_fields.hpp"

namespace niclab::gui {

namespace {
using Op = GrimMessage::Op;
// The operation combo's items, in GrimMessage::Op's order.
const Op kOps[] = {Op::am, Op::rm_p, Op::rm_v, Op::rm_read, Op::multicast};

QLineEdit* line(const char* name, const QString& text, const QString& placeholder = {}) {
    auto* l = new QLineEdit(text);
    l->setObjectName(name);
    l->setPlaceholderText(placeholder);
    return l;
}

// "1, 2 3": the numbers in a list separated by commas or spaces; InputError naming
// `what` for one that is not a number.
std::vector<uint64_t> numbers(const QString& text, const std::string& what, uint64_t max) {
    std::vector<uint64_t> out;
    for (const QString& part : text.split(QRegularExpression("[,\\s]+"), Qt::SkipEmptyParts)) out.push_back(parse_number(part, what, max));
    return out;
}
}  // namespace

GrimForm::GrimForm(QWidget* parent) : QGroupBox("GRIM operation (GRIM host library, logical channel 0)", parent) {
    op_ = new QComboBox;
    op_->setObjectName("grimOp");
    for (Op op : kOps) op_->addItem(to_string(op));
    sender_ = spin_field("grimSender", 0, 1 << 20, 0);
    target_ = spin_field("grimTarget", 0, 1 << 20, 1);
    members_ = line("grimMembers", "1, 2, 3", "node ids: 1, 2, 3");
    group_ = line("grimGroup", "gui.group");
    handler_ = line("grimHandler", "gui.inject");
    args_ = line("grimArgs", "1 2 3 4", "up to four 32-bit numbers");
    bytes_ = spin_field("grimBytes", 1, int(GrimInjection::kMaxBytes), 64, " B");
    offset_ = spin_field("grimOffset", 0, int(GrimInjection::kMaxOffset), 0, " B");
    memory_ = new QComboBox;
    memory_->setObjectName("grimMemory");
    memory_->addItems({"contiguous (malloc_pinned: static translation entry)", "pinned pages (translation cache, driver fills a miss)",
                       "not registered (refused by the target NI)"});
    // Long items, but the form stays as narrow as its other fields.
    memory_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    memory_->setMinimumContentsLength(16);
    notify_ = line("grimNotify", "1");
    pattern_ = line("grimPattern", "GRIM", "empty: bytes 0, 1, .. 255");
    send_ = new QPushButton("Send GRIM operation");
    send_->setObjectName("grimSend");

    form_ = new QWidget;
    auto* form = new QFormLayout(form_);
    form->addRow("Operation", op_);
    form->addRow("Sender (reader) node", sender_);
    form->addRow("Target node", target_);
    form->addRow("Group members", members_);
    form->addRow("Group (tree name)", group_);
    form->addRow("Handler name", handler_);
    form->addRow("Handler arguments", args_);
    form->addRow("Payload size", bytes_);
    form->addRow("Remote offset", offset_);
    form->addRow("Target memory (RM-V, read)", memory_);
    form->addRow("Notification value", notify_);
    form->addRow("Payload pattern", pattern_);
    form->addRow("", send_);
    auto* note = new QLabel(
        QString("The handler is registered by name on the receivers, which poll until it ran; an RM write's target polls "
                "its notification word, a read's reader its lock word. Active messages carry up to %1 B (GRIM's MTU); "
                "larger RM transfers and multicasts go in fragments.")
            .arg(GRIM_MTU));
    note->setWordWrap(true);
    form->addRow(note);

    unsupported_ = new QLabel("Build a GRIM cluster (preset grim-lanai9) in the System tab.");
    unsupported_->setObjectName("grimUnsupported");
    unsupported_->setWordWrap(true);
    auto* v = new QVBoxLayout(this);
    v->addWidget(unsupported_);
    v->addWidget(form_);
    connect(op_, &QComboBox::currentIndexChanged, this, &GrimForm::show_fields);
    show_fields();
}

void GrimForm::show_fields() {
    const Op op = kOps[op_->currentIndex()];
    const bool mc = op == Op::multicast, am = op == Op::am;
    const bool rm = op == Op::rm_p || op == Op::rm_v || op == Op::rm_read;
    target_->setEnabled(!mc);
    members_->setEnabled(mc);
    group_->setEnabled(mc);
    handler_->setEnabled(am || mc);
    args_->setEnabled(am || mc);
    offset_->setEnabled(rm);
    memory_->setEnabled(op == Op::rm_v || op == Op::rm_read);
    notify_->setEnabled(op == Op::rm_p || op == Op::rm_v);
}

GrimMessage GrimForm::message() const {
    GrimMessage m;
    m.op = kOps[op_->currentIndex()];
    m.sender = size_t(sender_->value());
    m.target = size_t(target_->value());
    if (m.op == Op::multicast)
        for (uint64_t n : numbers(members_->text(), "members", UINT32_MAX)) m.members.push_back(size_t(n));
    m.group = group_->text().trimmed().toStdString();
    m.handler = handler_->text().trimmed().toStdString();
    if (m.op == Op::am || m.op == Op::multicast) {
        const std::vector<uint64_t> args = numbers(args_->text(), "handler arguments", UINT32_MAX);
        if (args.size() > m.args.size())
            throw InputError("handler arguments: \"" + args_->text().toStdString() + "\" has " + std::to_string(args.size()) +
                             "; an active message carries four");
        for (size_t i = 0; i < args.size(); ++i) m.args[i] = uint32_t(args[i]);
    }
    m.bytes = uint64_t(bytes_->value());
    m.remote_offset = uint64_t(offset_->value());
    m.memory = GrimMessage::Memory(memory_->currentIndex());
    if (m.op == Op::rm_p || m.op == Op::rm_v) m.notify_value = uint32_t(parse_number(notify_->text(), "notification value", UINT32_MAX));
    m.pattern = pattern_->text().toStdString();
    return m;
}

void GrimForm::refresh(const SystemSnapshot& s) {
    const bool built = !s.nodes.empty();
    form_->setEnabled(built && s.grim_unsupported.empty());
    form_->setVisible(!built || s.grim_unsupported.empty());
    unsupported_->setVisible(!built || !s.grim_unsupported.empty());
    if (built && !s.grim_unsupported.empty()) unsupported_->setText(QString::fromStdString(s.grim_unsupported));
}

}  // namespace niclab::gui
