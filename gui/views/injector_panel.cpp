#include "views/injector_panel.hpp"

#include <algorithm>

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include "model/input_error.hpp"
#include "model/system_snapshot.hpp"
#include "model/transport_injection.hpp"
#include "views/error_dialog.hpp"
#include "views/form_fields.hpp"
#include "views/grim_form.hpp"
#include "views/system_view.hpp"
#include "worker/system_worker.hpp"

namespace niclab::gui {

InjectorPanel::InjectorPanel(SystemView* system, QWidget* parent) : QWidget(parent), system_(system) {
    op_ = new QComboBox;
    op_->setObjectName("portalsOp");
    op_->addItems({"put", "get"});
    initiator_ = spin_field("initiator", 0, 1 << 20, 0);
    target_ = spin_field("target", 0, 1 << 20, 1);
    pt_index_ = spin_field("ptIndex", 0, 255, 4);
    match_bits_ = new QLineEdit("0x17");
    match_bits_->setObjectName("matchBits");
    target_bits_ = new QLineEdit;
    target_bits_->setObjectName("targetBits");
    target_bits_->setPlaceholderText("the message's");
    length_ = spin_field("mdLength", 1, int(PortalsInjection::kMaxLength), 64, " B");
    offset_ = spin_field("remoteOffset", 0, int(PortalsInjection::kMaxLength), 0, " B");
    pattern_ = new QLineEdit("niclab");
    pattern_->setObjectName("pattern");
    pattern_->setPlaceholderText("empty: bytes 0, 1, .. 255");
    ack_ = new QCheckBox("acknowledgement (put)");
    ack_->setObjectName("ack");
    ack_->setChecked(true);
    send_ = new QPushButton("Send");
    send_->setObjectName("send");

    form_ = new QWidget;
    auto* form = new QFormLayout(form_);
    form->addRow("Operation", op_);
    form->addRow("Initiator node", initiator_);
    form->addRow(QString("Target node (pid %1)").arg(PortalsInjection::kPid), target_);
    form->addRow("Portal index", pt_index_);
    form->addRow("Match bits", match_bits_);
    form->addRow("Target ME's match bits", target_bits_);
    form->addRow("MD length", length_);
    form->addRow("Remote offset", offset_);
    form->addRow("Payload pattern", pattern_);
    form->addRow("", ack_);
    form->addRow("", send_);
    auto* note = new QLabel("The target listens with a match entry and an MD; both event queues are read.");
    note->setWordWrap(true);
    form->addRow(note);

    unsupported_ = new QLabel("Build a SeaStar cluster with the Portals firmware in the System tab.");
    unsupported_->setObjectName("injectorUnsupported");
    unsupported_->setWordWrap(true);
    summary_ = new QLabel;
    summary_->setObjectName("injectionSummary");
    check_ = new QLabel;
    check_->setObjectName("bytesCheck");
    events_ = new QTableWidget(0, 8);
    events_->setObjectName("portalsEvents");
    events_->setHorizontalHeaderLabels({"time (µs)", "node", "side", "event", "mlength / bytes", "rlength / sent", "offset",
                                        "match bits / tag / handler / word"});
    events_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    events_->verticalHeader()->setDefaultSectionSize(18);
    events_->horizontalHeader()->setStretchLastSection(true);
    counters_ = new QTableWidget(0, 0);
    counters_->setObjectName("niCounters");
    counters_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    counters_->verticalHeader()->setDefaultSectionSize(18);
    counters_->setToolTip("The NI counters of the nodes involved: how much each moved during the operation");
    counters_->hide();
    grim_ = new GrimForm;

    auto* portals = new QGroupBox("Portals put / get (SeaStar host library)");
    auto* pv = new QVBoxLayout(portals);
    pv->addWidget(unsupported_);
    pv->addWidget(form_);
    // Three forms: the column scrolls rather than squeezing them.
    auto* forms = new QWidget;
    auto* left = new QVBoxLayout(forms);
    left->addWidget(portals);
    left->addWidget(grim_);
    left->addWidget(make_transport_form());
    left->addStretch(1);
    auto* right = new QVBoxLayout;
    right->addWidget(summary_);
    right->addWidget(check_);
    right->addWidget(events_, 2);
    right->addWidget(counters_, 1);
    auto* h = new QHBoxLayout(this);
    auto* scroll = new QScrollArea;
    scroll->setWidget(forms);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setFrameShape(QFrame::NoFrame);
    h->addWidget(scroll, 2);
    h->addLayout(right, 3);

    connect(send_, &QPushButton::clicked, this, &InjectorPanel::send);
    connect(send_transport_, &QPushButton::clicked, this, &InjectorPanel::send_transport);
    connect(grim_->send_button(), &QPushButton::clicked, this, &InjectorPanel::send_grim);
    connect(system_, &SystemView::snapshot_shown, this, &InjectorPanel::refresh);
    refresh();
}

PortalsMessage InjectorPanel::message() const {
    PortalsMessage m;
    m.op = op_->currentIndex() == 0 ? PortalsMessage::Op::put : PortalsMessage::Op::get;
    m.initiator = size_t(initiator_->value());
    m.target = size_t(target_->value());
    m.pt_index = uint32_t(pt_index_->value());
    auto bits = [](const QLineEdit* field, const char* what) { return parse_number(field->text(), what); };
    m.match_bits = bits(match_bits_, "match bits");
    if (!target_bits_->text().trimmed().isEmpty()) m.target_bits = bits(target_bits_, "target ME's match bits");
    m.length = uint64_t(length_->value());
    m.remote_offset = uint64_t(offset_->value());
    m.pattern = pattern_->text().toStdString();
    m.ack = ack_->isChecked();
    return m;
}

QWidget* InjectorPanel::make_transport_form() {
    auto* box = new QGroupBox("Transport message (every system's host library)");
    transport_ = new QComboBox;
    transport_->setObjectName("transport");
    sender_ = spin_field("sender", 0, 1 << 20, 0);
    receiver_ = spin_field("receiver", 0, 1 << 20, 1);
    bytes_ = spin_field("messageBytes", 1, 1 << 24, 64, " B");
    tag_ = spin_field("tag", 0, 1 << 30, 7);
    send_transport_ = new QPushButton("Send message");
    send_transport_->setObjectName("sendTransport");
    transport_form_ = new QWidget;
    auto* form = new QFormLayout(transport_form_);
    form->addRow("Transport", transport_);
    form->addRow("Sender node", sender_);
    form->addRow("Receiver node", receiver_);
    form->addRow("Size", bytes_);
    form->addRow("Tag", tag_);
    form->addRow("", send_transport_);
    auto* note = new QLabel(
        "The library's own send and receive, as the experiments use them (JAM on the StarT-X, CSP on the DSNIC, "
        "virtual links on the T9000, Portals on the SeaStar); the receiver checks every byte against the "
        "sender's seeded pattern.");
    note->setWordWrap(true);
    form->addRow(note);
    auto* v = new QVBoxLayout(box);
    v->addWidget(transport_form_);
    return box;
}

bool InjectorPanel::ready_to_send() {
    const SystemSnapshot& s = system_->shown();
    const bool built = s.phase == SystemSnapshot::Phase::paused || s.phase == SystemSnapshot::Phase::running ||
                       s.phase == SystemSnapshot::Phase::idle;
    if (!built) show_error(this, "Cannot send the message", "no cluster: build one in the System tab first");
    return built;
}

void InjectorPanel::send() {
    if (!ready_to_send()) return;
    try {
        const SystemSnapshot& s = system_->shown();
        if (!s.portals_unsupported.empty()) throw InputError(s.portals_unsupported);
        system_->worker()->inject(message());
    } catch (const std::exception& e) {  // InputError naming the field
        show_error(this, "Cannot send the message", QString::fromUtf8(e.what()));
        return;
    }
    sending("sent: waiting for its events…");
}

void InjectorPanel::send_grim() {
    if (!ready_to_send()) return;
    try {
        const SystemSnapshot& s = system_->shown();
        if (!s.grim_unsupported.empty()) throw InputError(s.grim_unsupported);
        system_->worker()->inject(grim_->message());
    } catch (const std::exception& e) {  // InputError naming the field
        show_error(this, "Cannot send the GRIM operation", QString::fromUtf8(e.what()));
        return;
    }
    sending("sent: waiting for its steps…");
}

void InjectorPanel::sending(const QString& what) {
    summary_->setText(what);
    for (QPushButton* b : {send_, send_transport_, grim_->send_button()}) b->setEnabled(false);
}

void InjectorPanel::send_transport() {
    if (!ready_to_send()) return;
    TransportMessage m;
    m.transport = transport_->currentText().toStdString();
    m.sender = size_t(sender_->value());
    m.receiver = size_t(receiver_->value());
    m.bytes = uint64_t(bytes_->value());
    m.tag = uint64_t(tag_->value());
    system_->worker()->inject(m);  // bad nodes or sizes come back as the outcome's error
    sending("sent: waiting for it to arrive…");
}

void InjectorPanel::refresh() {
    const SystemSnapshot& s = system_->shown();
    const bool built = !s.nodes.empty();
    form_->setEnabled(built && s.portals_unsupported.empty());
    form_->setVisible(!built || s.portals_unsupported.empty());  // the reason in its place
    transport_form_->setEnabled(built && !s.transports.empty());
    QStringList names;
    for (const auto& t : s.transports) names << QString::fromStdString(t);
    QStringList listed;
    for (int i = 0; i < transport_->count(); ++i) listed << transport_->itemText(i);
    if (names != listed) {
        transport_->clear();
        transport_->addItems(names);
    }
    unsupported_->setVisible(!built || !s.portals_unsupported.empty());
    if (built && !s.portals_unsupported.empty()) unsupported_->setText(QString::fromStdString(s.portals_unsupported));
    grim_->refresh(s);
    if (s.injection_id == injection_seen_) return;
    injection_seen_ = s.injection_id;
    for (QPushButton* b : {send_, send_transport_, grim_->send_button()}) b->setEnabled(true);
    if (!s.injection_error.empty()) {
        summary_->setText("not sent");
        show_error(this, "Cannot send the message", QString::fromStdString(s.injection_error));
        return;
    }
    if (s.injection) show_outcome(*s.injection);
}

void InjectorPanel::show_outcome(const InjectionOutcome& o) {
    summary_->setText(QString::fromStdString(o.summary));
    const bool all = o.bytes_matching == o.bytes_expected;
    check_->setText(QString("%1 of %2 bytes arrived as sent %3")
                        .arg(o.bytes_matching)
                        .arg(o.bytes_expected)
                        .arg(all ? "✓" : "✗"));
    check_->setStyleSheet(all ? "color: darkgreen" : "color: darkred; font-weight: bold");
    events_->setRowCount(int(o.events.size()));
    for (int r = 0; r < int(o.events.size()); ++r) {
        const InjectedEvent& e = o.events[size_t(r)];
        const QStringList cells{QString::number(e.time.as_us(), 'f', 3), QString::number(e.node),
                                QString::fromStdString(e.side), QString::fromStdString(e.type) + (e.ni_fail ? " (NI_FAIL)" : ""),
                                QString::number(e.mlength), QString::number(e.rlength), QString::number(e.offset),
                                "0x" + QString::number(e.match_bits, 16)};
        for (int c = 0; c < cells.size(); ++c) events_->setItem(r, c, new QTableWidgetItem(cells[c]));
    }
    events_->resizeColumnsToContents();
    show_counters(o.counters);
    if (!o.errors.empty()) {
        QString text;
        for (const auto& e : o.errors) text += QString::fromStdString(e) + "\n";
        show_error(this, "The host library refused the operation", text.trimmed());
    }
}

// A row per counter, a column per node: how much each moved (the value after in the
// tooltip). Rows where nothing moved are left out, except what says how the NI-to-NI
// protocol went (ACKs, NACKs, resends, translation hits and misses), which is news at 0.
void InjectorPanel::show_counters(const std::vector<CounterChange>& changes) {
    counters_->setVisible(!changes.empty());
    std::vector<size_t> nodes;
    std::vector<std::string> names;
    for (const auto& c : changes) {
        if (std::find(nodes.begin(), nodes.end(), c.node) == nodes.end()) nodes.push_back(c.node);
        if (std::find(names.begin(), names.end(), c.name) == names.end()) names.push_back(c.name);
    }
    const QStringList always{"grim.acks_sent", "grim.acks_received", "grim.nacks_sent", "grim.nacks_received",
                             "grim.retransmits", "grim.xlate_hits", "grim.xlate_misses"};
    std::vector<std::string> shown;
    for (const auto& name : names) {
        const bool moved = std::any_of(changes.begin(), changes.end(), [&](const CounterChange& c) { return c.name == name && c.after != c.before; });
        if (moved || always.contains(QString::fromStdString(name))) shown.push_back(name);
    }
    counters_->clear();
    counters_->setRowCount(int(shown.size()));
    counters_->setColumnCount(int(nodes.size()));
    QStringList columns, rows;
    for (size_t n : nodes) columns << QString("node %1").arg(n);
    for (const auto& name : shown) rows << QString::fromStdString(name);
    counters_->setHorizontalHeaderLabels(columns);
    counters_->setVerticalHeaderLabels(rows);
    for (const auto& c : changes) {
        const auto row = std::find(shown.begin(), shown.end(), c.name);
        if (row == shown.end()) continue;
        const auto col = std::find(nodes.begin(), nodes.end(), c.node);
        auto* item = new QTableWidgetItem(QString("+%1").arg(c.after - c.before));
        item->setToolTip(QString("%1 on node %2: %3 → %4").arg(QString::fromStdString(c.name)).arg(c.node).arg(c.before).arg(c.after));
        counters_->setItem(int(row - shown.begin()), int(col - nodes.begin()), item);
    }
    counters_->resizeColumnsToContents();
}

}  // namespace niclab::gui
