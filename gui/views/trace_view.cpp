#include "views/trace_view.hpp"

#include <algorithm>

#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include "niclab/trace/decoder.hpp"
#include "views/browse_button.hpp"
#include "views/error_dialog.hpp"
#include "views/source_view.hpp"
#include "views/trace_timeline.hpp"

namespace niclab::gui {

TraceView::TraceView(QWidget* parent) : QWidget(parent) {
    auto* open = new QPushButton("Open traces…");
    open->setObjectName("openTraces");
    elf_ = new QLineEdit;
    elf_->setObjectName("elf");
    elf_->setPlaceholderText("firmware ELF for symbols (optional)");
    auto* pick_elf = browse_button("ELF…", elf_, "Firmware ELF", "ELF (*.elf);;All files (*)");
    auto* clear = new QPushButton("Close all");
    auto* perfetto = new QPushButton("Export to Perfetto…");
    perfetto->setObjectName("exportPerfetto");
    value_ = new QLineEdit;
    value_->setObjectName("valueFilter");
    value_->setPlaceholderText("value");
    value_->setMaximumWidth(80);
    function_ = new QLineEdit;
    function_->setObjectName("functionFilter");
    function_->setPlaceholderText("function");
    function_->setMaximumWidth(160);
    auto* bar = new QHBoxLayout;
    bar->addWidget(open);
    bar->addWidget(elf_, 1);
    bar->addWidget(pick_elf);
    bar->addWidget(new QLabel("Only"));
    bar->addWidget(value_);
    bar->addWidget(function_);
    bar->addWidget(perfetto);
    bar->addWidget(clear);

    axis_ = new QLabel;
    axis_->setObjectName("axis");
    timeline_ = new TraceTimeline;
    list_ = new QTableWidget(0, 3);
    list_->setObjectName("records");
    list_->setHorizontalHeaderLabels({"node", "time (µs)", "record (seed 000 Figure 2)"});
    list_->horizontalHeader()->setStretchLastSection(true);
    list_->verticalHeader()->setVisible(false);
    list_->verticalHeader()->setDefaultSectionSize(18);
    list_->setSelectionBehavior(QAbstractItemView::SelectRows);
    list_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    QFont mono("monospace");
    mono.setStyleHint(QFont::Monospace);
    list_->setFont(mono);
    where_ = new QLabel;
    where_->setObjectName("sourceWhere");
    source_ = new SourceView;
    source_->setObjectName("sourceText");
    delta_ = new QLabel;
    delta_->setObjectName("delta");

    auto* right = new QWidget;
    auto* rv = new QVBoxLayout(right);
    rv->setContentsMargins(0, 0, 0, 0);
    rv->addWidget(where_);
    rv->addWidget(source_, 1);
    auto* lower = new QSplitter;
    lower->addWidget(list_);
    lower->addWidget(right);
    lower->setSizes({620, 480});
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(timeline_);
    split->addWidget(lower);
    split->setSizes({160, 480});

    auto* v = new QVBoxLayout(this);
    v->addLayout(bar);
    v->addWidget(axis_);
    v->addWidget(split, 1);
    v->addWidget(delta_);

    connect(open, &QPushButton::clicked, this, [this] {
        const QStringList files = QFileDialog::getOpenFileNames(this, "Open trace files", {}, "Traces (*.trace);;All files (*)");
        if (!files.isEmpty()) this->open(files, elf_->text());
    });
    connect(perfetto, &QPushButton::clicked, this, [this] {
        const QString f = QFileDialog::getSaveFileName(this, "Export to Perfetto (open it in ui.perfetto.dev)",
                                                       "trace.json", "Chrome trace-event JSON (*.json)");
        if (!f.isEmpty()) export_perfetto(f);
    });
    connect(clear, &QPushButton::clicked, this, [this] {
        set_.clear();
        refill();
    });
    for (auto* edit : {value_, function_}) connect(edit, &QLineEdit::textChanged, this, [this] { refill(); });
    connect(list_, &QTableWidget::itemSelectionChanged, this, &TraceView::selection_changed);
    connect(timeline_, &TraceTimeline::picked, this, [this](size_t row) {
        auto it = std::find(shown_.begin(), shown_.end(), row);
        if (it != shown_.end()) select_row(int(it - shown_.begin()));
    });
}

int TraceView::open(const QStringList& traces, const QString& elf) {
    int opened = 0;
    QStringList errors;
    for (const QString& t : traces) {
        try {
            set_.add(t.toStdString(), elf.toStdString());
            ++opened;
        } catch (const std::exception& e) {  // TraceFormatError, TraceBuildIdMismatch, FirmwareImageError
            errors << QFileInfo(t).fileName() + ": " + QString::fromUtf8(e.what());
        }
    }
    refill();
    if (!errors.isEmpty()) show_error(this, "Cannot open the trace", errors.join("\n\n"));
    return opened;
}

void TraceView::set_filters(const QString& value, const QString& function) {
    value_->setText(value);
    function_->setText(function);
}

void TraceView::refill() {
    bool value_ok = false;
    const int value = value_->text().trimmed().toInt(&value_ok);
    const std::string function = function_->text().trimmed().toStdString();
    shown_.clear();
    const auto& rows = set_.rows();
    for (size_t i = 0; i < rows.size(); ++i) {
        if (value_ok && rows[i].record.value != value) continue;
        if (!function.empty() && rows[i].record.function != function) continue;
        shown_.push_back(i);
    }
    list_->clearContents();
    list_->setRowCount(int(shown_.size()));
    for (size_t r = 0; r < shown_.size(); ++r) {
        const TraceRow& row = rows[shown_[r]];
        list_->setItem(int(r), 0, new QTableWidgetItem(QString::number(row.node)));
        list_->setItem(int(r), 1, new QTableWidgetItem(QString::number(row.t_ns / 1000.0, 'f', 3)));
        list_->setItem(int(r), 2, new QTableWidgetItem(QString::fromStdString(trace::format_record(row.record, true))));
    }
    list_->resizeColumnToContents(0);
    list_->resizeColumnToContents(1);
    timeline_->show_rows(rows, shown_);
    if (set_.files().empty()) axis_->clear();
    else
        axis_->setText(set_.global()
                           ? QString("%1 trace(s) on the global simulated time axis").arg(set_.files().size())
                           : QString("%1 trace(s); some have no global time axis (version 1 files): their times are "
                                     "each node's own core time")
                                 .arg(set_.files().size()));
}

void TraceView::select_row(int list_row) {
    list_->clearSelection();
    list_->selectRow(list_row);
    if (auto* item = list_->item(list_row, 0)) list_->scrollToItem(item);
}

void TraceView::select_rows(int first, int second) {
    list_->clearSelection();
    const auto mode = list_->selectionMode();
    list_->setSelectionMode(QAbstractItemView::MultiSelection);
    list_->selectRow(first);
    list_->selectRow(second);
    list_->setSelectionMode(mode);
}

QString TraceView::delta_text() const { return delta_->text(); }

void TraceView::selection_changed() {
    QList<int> rows;
    for (const auto& range : list_->selectedRanges())
        for (int r = range.topRow(); r <= range.bottomRow(); ++r) rows << r;
    std::sort(rows.begin(), rows.end());
    if (rows.isEmpty()) return;
    const TraceRow& last = set_.rows()[shown_[size_t(rows.back())]];
    show_source(last);
    timeline_->mark(shown_[size_t(rows.back())]);
    if (rows.size() >= 2) {
        const TraceRow& first = set_.rows()[shown_[size_t(rows.front())]];
        delta_->setText(QString("Δt = %1 ns from node %2 %3 to node %4 %5")
                            .arg(last.t_ns - first.t_ns, 0, 'f', 1)
                            .arg(first.node)
                            .arg(QString::fromStdString(first.record.function))
                            .arg(last.node)
                            .arg(QString::fromStdString(last.record.function)));
    } else {
        delta_->setText("select two records to see the time between them");
    }
}

int TraceView::source_line() const { return source_->line(); }
QString TraceView::source_file() const { return source_->path(); }

void TraceView::show_source(const TraceRow& row) {
    const auto& r = row.record;
    const QString path = QString::fromStdString(row.source);
    if (row.source.empty() || !source_->show_at(path, r.line)) {
        where_->setText(r.file.empty() ? "no source line (open the traces with their firmware's ELF)"
                                       : QString::fromStdString(r.file) + ": source not found here");
        source_->show_at({}, 0);
        return;
    }
    where_->setText(QString("%1:%2  (%3+0x%4)")
                        .arg(path)
                        .arg(r.line)
                        .arg(QString::fromStdString(r.function))
                        .arg(r.offset, 0, 16));
}

bool TraceView::export_perfetto(const QString& path) {
    try {
        set_.export_chrome(path.toStdString());
    } catch (const std::exception& e) {  // TraceError: nothing open, or the file cannot be written
        show_error(this, "Cannot export to Perfetto", QString::fromUtf8(e.what()));
        return false;
    }
    return true;
}

}  // namespace niclab::gui
