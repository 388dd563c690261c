#include "worker/system_worker.hpp"

#include <algorithm>

#include "model/system_session.hpp"

namespace niclab::gui {

SystemWorker::SystemWorker(QObject* parent) : QObject(parent) { thread_ = std::thread([this] { loop(); }); }

SystemWorker::~SystemWorker() {
    {
        std::lock_guard lock(mutex_);
        quit_ = true;
    }
    wake_.notify_all();
    thread_.join();
}

void SystemWorker::build(system::SystemSpec spec) {
    {
        std::lock_guard lock(mutex_);
        build_ = std::move(spec);
        running_ = false;
        step_left_ = Time{};
        auto building = std::make_shared<SystemSnapshot>(*latest_);
        building->phase = SystemSnapshot::Phase::building;
        ++building->version;
        latest_ = std::move(building);
    }
    wake_.notify_all();
}

void SystemWorker::load(std::vector<size_t> nodes, std::string elf) {
    {
        std::lock_guard lock(mutex_);
        load_ = Load{std::move(nodes), std::move(elf)};
    }
    wake_.notify_all();
}

void SystemWorker::inject(SystemSession::Injection m) {
    {
        std::lock_guard lock(mutex_);
        inject_ = std::move(m);
    }
    wake_.notify_all();
}

void SystemWorker::run() {
    {
        std::lock_guard lock(mutex_);
        if (!session_ && !build_) return;
        running_ = true;
    }
    wake_.notify_all();
}

void SystemWorker::pause() {
    std::lock_guard lock(mutex_);
    running_ = false;
    step_left_ = Time{};
}

void SystemWorker::step(Time duration) {
    {
        std::lock_guard lock(mutex_);
        if (!session_ && !build_) return;
        step_left_ = step_left_ + duration;
    }
    wake_.notify_all();
}

std::shared_ptr<const SystemSnapshot> SystemWorker::snapshot() const {
    std::lock_guard lock(mutex_);
    return latest_;
}

uint64_t SystemWorker::version() const {
    std::lock_guard lock(mutex_);
    return latest_->version;
}

void SystemWorker::publish(SystemSnapshot s) {
    std::lock_guard lock(mutex_);
    s.version = latest_->version + 1;
    s.notice_id = notice_id_;
    s.notice = notice_;
    s.notice_error = notice_error_;
    s.injection_id = injection_id_;
    s.injection = injection_;
    s.injection_error = injection_error_;
    latest_ = std::make_shared<const SystemSnapshot>(std::move(s));
}

// After a command done between slices (a load, an injection): the cluster as it is,
// running on if it was.
void SystemWorker::publish_between_slices() {
    SystemSnapshot s = session_->snapshot();
    s.phase = SystemSnapshot::Phase::paused;
    {
        std::lock_guard lock(mutex_);
        if (running_ || step_left_.ps() > 0) s.phase = SystemSnapshot::Phase::running;
    }
    publish(std::move(s));
}

void SystemWorker::loop() {
    for (;;) {
        std::optional<system::SystemSpec> build;
        std::optional<Load> load;
        std::optional<SystemSession::Injection> inject;
        Time slice{};
        {
            std::unique_lock lock(mutex_);
            auto work = [&] {
                return quit_ || build_ || ((load_ || inject_) && session_) || ((running_ || step_left_.ps() > 0) && session_);
            };
            if (!work() && unpublished_) {
                // Paused after slices that were not read: show where it stopped.
                lock.unlock();
                unpublished_ = false;
                SystemSnapshot s = session_->snapshot();
                s.phase = SystemSnapshot::Phase::paused;
                publish(std::move(s));
                continue;
            }
            wake_.wait(lock, work);
            if (quit_) return;
            if (build_) {
                build = std::move(build_);
                build_.reset();
            } else if (load_) {
                load = std::move(load_);
                load_.reset();
            } else if (inject_) {
                inject = std::move(inject_);
                inject_.reset();
            } else {
                slice = running_ ? kSlice : std::min(kSlice, step_left_);
            }
        }
        if (build) {
            // The old cluster goes first: two large systems need not coexist. The
            // pointer changes under the lock (commands test it); the work is outside.
            std::unique_ptr<SystemSession> old, fresh;
            {
                std::lock_guard lock(mutex_);
                old = std::move(session_);
            }
            old.reset();
            unpublished_ = false;
            SystemSnapshot s;
            try {
                fresh = std::make_unique<SystemSession>(*build);
                s = fresh->snapshot();
                s.phase = SystemSnapshot::Phase::paused;
            } catch (const std::exception& e) {  // ConfigError, FirmwareImageError, a boot fault
                s.phase = SystemSnapshot::Phase::failed;
                s.error = e.what();
            }
            {
                std::lock_guard lock(mutex_);
                session_ = std::move(fresh);
            }
            publish(std::move(s));
            continue;
        }
        if (load) {
            std::string notice;
            bool error = false;
            try {
                notice = session_->load(load->nodes, load->elf);
            } catch (const std::exception& e) {  // FirmwareImageError, FirmwareFault, BootTimeout
                notice = e.what();
                error = true;
            }
            {
                std::lock_guard lock(mutex_);
                ++notice_id_;
                notice_ = notice;
                notice_error_ = error;
            }
            publish_between_slices();
            continue;
        }
        if (inject) {
            std::shared_ptr<const InjectionOutcome> outcome;
            std::string error;
            try {
                outcome = std::make_shared<const InjectionOutcome>(session_->inject(*inject));
            } catch (const std::exception& e) {  // InputError, PortalsError, TransportError, a node without Portals or GRIM
                error = e.what();
            }
            {
                std::lock_guard lock(mutex_);
                ++injection_id_;
                injection_ = std::move(outcome);
                injection_error_ = error;
            }
            publish_between_slices();
            continue;
        }
        const Time before = session_->now();
        const auto r = session_->advance(slice);
        const Time advanced = session_->now() - before;
        SystemSnapshot::Phase phase;
        {
            std::lock_guard lock(mutex_);
            if (!running_) step_left_ = step_left_ - std::min(step_left_, std::max(advanced, slice));
            // Nothing left to do (every core asleep, no event pending): time cannot move.
            const bool idle = advanced.ps() == 0 && !r.stopped_by_request;
            if (idle || !r.faulted_nodes.empty()) running_ = false, step_left_ = Time{};
            phase = idle ? SystemSnapshot::Phase::idle
                         : (running_ || step_left_.ps() > 0 ? SystemSnapshot::Phase::running : SystemSnapshot::Phase::paused);
        }
        // Reading every node's counters costs more than a slice of a large cluster, so a
        // running cluster is read a few times per wall second (the view refreshes no
        // faster), and at most a tenth of the time: Red Storm's snapshot took longer than
        // kPublishEvery, so one followed every slice and most of the thread went to them.
        // A stop, a fault or a death is read at once.
        const auto wall = std::chrono::steady_clock::now();
        if (phase == SystemSnapshot::Phase::running && r.faulted_nodes.empty() && r.dead_nodes.empty() &&
            wall - last_publish_ < std::max<std::chrono::steady_clock::duration>(kPublishEvery, 9 * snapshot_cost_)) {
            unpublished_ = true;
            continue;
        }
        unpublished_ = false;
        SystemSnapshot s = session_->snapshot();
        s.phase = phase;
        publish(std::move(s));
        last_publish_ = std::chrono::steady_clock::now();
        snapshot_cost_ = last_publish_ - wall;
    }
}

}  // namespace niclab::gui
