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
        latest_.phase = SystemSnapshot::Phase::building;
        ++latest_.version;
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

SystemSnapshot SystemWorker::snapshot() const {
    std::lock_guard lock(mutex_);
    return latest_;
}

uint64_t SystemWorker::version() const {
    std::lock_guard lock(mutex_);
    return latest_.version;
}

void SystemWorker::publish(SystemSnapshot s) {
    std::lock_guard lock(mutex_);
    s.version = latest_.version + 1;
    latest_ = std::move(s);
}

void SystemWorker::loop() {
    for (;;) {
        std::optional<system::SystemSpec> build;
        Time slice{};
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [&] { return quit_ || build_ || ((running_ || step_left_.ps() > 0) && session_); });
            if (quit_) return;
            if (build_) {
                build = std::move(build_);
                build_.reset();
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
        const Time before = session_->now();
        const auto r = session_->advance(slice);
        SystemSnapshot s = session_->snapshot();
        const Time advanced = session_->now() - before;
        bool idle = false;
        {
            std::lock_guard lock(mutex_);
            if (!running_) step_left_ = step_left_ - std::min(step_left_, std::max(advanced, slice));
            // Nothing left to do (every core asleep, no event pending): time cannot move.
            idle = advanced.ps() == 0 && !r.stopped_by_request;
            if (idle || !r.faulted_nodes.empty()) running_ = false, step_left_ = Time{};
            s.phase = idle ? SystemSnapshot::Phase::idle
                           : (running_ || step_left_.ps() > 0 ? SystemSnapshot::Phase::running : SystemSnapshot::Phase::paused);
        }
        publish(std::move(s));
    }
}

}  // namespace niclab::gui
