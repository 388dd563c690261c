#pragma once
// The trace viewer: trace files of any nodes opened together (with their firmware's
// ELF for symbols), the records on one time axis (lanes per node; zoom and pan), the
// list in seed 000's Figure 2 format with value and function filters, the source of
// the selected record at its trace point's line, and the time between two selected
// records.
#include <vector>

#include <QStringList>
#include <QWidget>

#include "model/trace_set.hpp"

class QLabel;
class QLineEdit;
class QTableWidget;

namespace niclab::gui {

class SourceView;
class TraceTimeline;

class TraceView : public QWidget {
    Q_OBJECT
public:
    explicit TraceView(QWidget* parent = nullptr);

    // Opens the files with `elf` (empty: no symbols); a dialog names what is wrong
    // with any that cannot be read, and the others are still shown. Returns how many
    // were opened.
    int open(const QStringList& traces, const QString& elf);
    void set_filters(const QString& value, const QString& function);
    void select_row(int list_row);                 // a row of the list as shown
    void select_rows(int first, int second);       // two rows: their time difference
    // Writes the open traces as Perfetto (Chrome trace-event) JSON; a dialog names what
    // went wrong. True when written.
    bool export_perfetto(const QString& path);
    const TraceSet& traces() const { return set_; }
    // For tests and the status line: what the panes show.
    QTableWidget* list() const { return list_; }
    SourceView* source() const { return source_; }
    int source_line() const;  // 1-based; 0 when none
    QString source_file() const;
    QString delta_text() const;

private:
    void refill();
    void selection_changed();
    void show_source(const TraceRow& row);

    TraceSet set_;
    std::vector<size_t> shown_;  // rows of set_ the filters let through, in time order
    QLineEdit* elf_;
    QLineEdit* value_;
    QLineEdit* function_;
    QLabel* axis_;
    TraceTimeline* timeline_;
    QTableWidget* list_;
    QLabel* where_;
    SourceView* source_;
    QLabel* delta_;
};

}  // namespace niclab::gui
