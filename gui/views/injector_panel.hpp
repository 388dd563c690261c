#pragma once
// The message injector: compose a message for a node's host library, send it into the
// cluster the system view built, and watch the events it produced with their
// simulated times, and whether the bytes arrived as sent. On the SeaStar: a Portals
// put or get (the core's PortalsProcess, as niclab.portals uses), with its event
// queues' events; on every system: a message through one of its host libraries'
// transports (JAM, CSP, virtual links, Portals), checked byte for byte on arrival. On
// GRIM: an active message, RM write or read, or multicast through GRIM's own library
// (views/grim_form.hpp), with the NI counters it moved. A system without Portals (or
// not GRIM) says so in place of that form.
#include <QWidget>

#include "model/portals_injection.hpp"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace niclab::gui {

class GrimForm;
class SystemView;

class InjectorPanel : public QWidget {
    Q_OBJECT
public:
    explicit InjectorPanel(SystemView* system, QWidget* parent = nullptr);

    QTableWidget* events() const { return events_; }
    QTableWidget* counters() const { return counters_; }
    QLabel* check() const { return check_; }

public slots:
    void send();            // the Portals form's message; a dialog names a bad field
    void send_transport();  // the transport form's
    void send_grim();       // the GRIM form's; a dialog names a bad field
    void refresh();  // after the system view showed a new snapshot

private:
    PortalsMessage message() const;  // InputError naming the field
    QWidget* make_transport_form();
    bool ready_to_send();  // a built cluster, else a dialog
    void show_outcome(const InjectionOutcome& o);
    void show_counters(const std::vector<CounterChange>& changes);
    void sending(const QString& what);  // the summary says so; every send button waits for the outcome

    SystemView* system_;
    QComboBox* op_;
    QSpinBox *initiator_, *target_, *pt_index_, *length_, *offset_;
    QLineEdit *match_bits_, *target_bits_, *pattern_;
    QCheckBox* ack_;
    QPushButton* send_;
    QWidget* form_;
    QComboBox* transport_;
    QSpinBox *sender_, *receiver_, *bytes_, *tag_;
    QPushButton* send_transport_;
    QWidget* transport_form_;
    QLabel* unsupported_;
    QLabel* summary_;
    QLabel* check_;
    QTableWidget* events_;
    QTableWidget* counters_;
    GrimForm* grim_;
    uint64_t injection_seen_ = 0;
};

}  // namespace niclab::gui
