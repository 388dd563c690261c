#pragma once
// The system view's simulation thread: it builds the cluster, runs it in short slices
// of simulated time while asked to run (or for a step), and publishes a snapshot after
// each slice. Commands (build, run, pause, step) only set flags the thread reads
// between slices, so the GUI never waits on the simulation and a pause takes effect
// after the slice under way.
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <QObject>

#include "model/system_session.hpp"
#include "model/system_snapshot.hpp"
#include "niclab/system/system_spec.hpp"

namespace niclab::gui {


class SystemWorker : public QObject {
    Q_OBJECT
public:
    explicit SystemWorker(QObject* parent = nullptr);
    ~SystemWorker() override;  // stops the thread after its slice

    void build(system::SystemSpec spec);  // replaces the cluster (a reset)
    void run();
    void pause();
    void step(Time duration);
    // Loads `elf` on `nodes` (empty: all) between slices; the outcome is the next
    // snapshots' notice (a size report, or the error).
    void load(std::vector<size_t> nodes, std::string elf);

    // Performs a Portals, GRIM or transport message between slices (SystemSession::inject); the outcome is
    // the next snapshots' `injection` (or `injection_error`).
    void inject(SystemSession::Injection m);

    // The latest snapshot (phase, nodes, time); cheap to call from a timer: shared, not
    // copied (Red Storm's is 10,368 nodes of counters, a copy a tenth of a second).
    std::shared_ptr<const SystemSnapshot> snapshot() const;
    uint64_t version() const;

    // Simulated time per slice: short enough that pause is prompt, long enough that
    // a busy core runs thousands of instructions between snapshots.
    static constexpr Time kSlice = Time::us(10);
    static constexpr std::chrono::milliseconds kPublishEvery{50};

private:
    void loop();
    void publish(SystemSnapshot s);
    void publish_between_slices();

    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::optional<system::SystemSpec> build_;
    struct Load {
        std::vector<size_t> nodes;
        std::string elf;
    };
    std::optional<Load> load_;
    std::optional<SystemSession::Injection> inject_;
    uint64_t injection_id_ = 0;  // the last injection's outcome, copied into every snapshot
    std::shared_ptr<const InjectionOutcome> injection_;
    std::string injection_error_;
    uint64_t notice_id_ = 0;  // the last load's outcome, copied into every snapshot
    std::string notice_;
    bool notice_error_ = false;
    bool running_ = false;
    Time step_left_{};
    bool quit_ = false;
    std::shared_ptr<const SystemSnapshot> latest_ = std::make_shared<const SystemSnapshot>();
    std::unique_ptr<SystemSession> session_;  // the thread's own
    std::chrono::steady_clock::time_point last_publish_{};  // when the last snapshot was out
    std::chrono::steady_clock::duration snapshot_cost_{};   // what making it took
    bool unpublished_ = false;  // slices ran since the last snapshot (worker thread only)
    std::thread thread_;
};

}  // namespace niclab::gui
