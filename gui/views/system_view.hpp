#pragma once
// The system view: build the chosen cluster, run / pause / step it by simulated time,
// reset, and watch each node's state and counters on the topology drawing. The
// simulation runs on a SystemWorker; a timer reads its snapshots. Simulated time and
// speed (simulated µs per wall second) go to the status line.
#include <memory>
#include <vector>

#include <QElapsedTimer>
#include <QWidget>

#include "model/system_snapshot.hpp"

class QDoubleSpinBox;
class QGraphicsView;
class QLineEdit;
class QLabel;
class QPushButton;
class QTableView;
class QTimer;

namespace niclab::gui {

class CounterTable;
class FirmwareBuilder;
class SpecPicker;
class SystemWorker;
class TopologyScene;

class SystemView : public QWidget {
    Q_OBJECT
public:
    SystemView(SpecPicker* spec, QWidget* parent = nullptr);
    ~SystemView() override;

    SystemWorker* worker() const { return worker_; }
    TopologyScene* scene() const { return scene_; }
    FirmwareBuilder* builder() const { return builder_; }
    const SystemSnapshot& shown() const { return *shown_; }

public slots:
    void build();  // (re)builds the cluster from the spec picker: also the reset
    void run();
    void pause();
    void step();
    // Loads the image named in the firmware field on the nodes listed ("0, 2"; empty: all).
    void load_firmware();
    void refresh();  // reads the latest snapshot (the timer calls it)

signals:
    void status(const QString& text);  // simulated time and speed, for the status bar
    void snapshot_shown();             // after a new snapshot is drawn

private:
    void update_buttons();

    SpecPicker* spec_;
    SystemWorker* worker_;
    TopologyScene* scene_;
    QGraphicsView* view_;
    QTableView* counters_;
    CounterTable* counter_table_;  // the counters of shown_
    QPushButton *build_, *run_, *pause_, *step_;
    QDoubleSpinBox* step_us_;
    QLineEdit* image_;
    QLineEdit* load_nodes_;
    QPushButton* load_;
    FirmwareBuilder* builder_;
    QLabel* notice_;
    uint64_t notice_seen_ = 0;
    QLabel* phase_;
    QTimer* timer_;
    std::shared_ptr<const SystemSnapshot> shown_ = std::make_shared<const SystemSnapshot>();
    std::vector<bool> fault_reported_;  // per node, since the last build: one dialog per fault
    // Speed: simulated time against wall time between two snapshots; shown, never used.
    QElapsedTimer wall_;
    Time speed_from_{};
    double speed_us_per_s_ = 0;
};

}  // namespace niclab::gui
