#include "system_guard.hpp"

#include <thread>
#include <unordered_map>

namespace niclab::bindings {

namespace {
// The thread running each system, while it runs.
std::unordered_map<GuardKey, std::thread::id>& running() {
    static std::unordered_map<GuardKey, std::thread::id> threads;
    return threads;
}
}  // namespace

void refuse_if_running_elsewhere(GuardKey key, const std::string& what) {
    auto it = running().find(key);
    if (it != running().end() && it->second != std::this_thread::get_id())
        throw SystemBusy(what, what +
                                   ": the system is being run by another thread; use it from that run's observer or "
                                   "once the run has returned");
}

RunMark::RunMark(GuardKey key, const std::string& what) : key_(key) {
    refuse_if_running_elsewhere(key, what);
    own_ = running().emplace(key, std::this_thread::get_id()).second;
}

RunMark::~RunMark() {
    if (own_) running().erase(key_);
}

}  // namespace niclab::bindings
