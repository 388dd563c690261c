#pragma once
// A cluster under the user's hand: the System built from a spec, advanced by slices of
// simulated time, and read into SystemSnapshots. Lives on the system worker's thread
// only; the views see its snapshots.
#include <memory>
#include <vector>

#include <variant>

#include "model/grim_injection.hpp"
#include "model/portals_injection.hpp"
#include "model/transport_injection.hpp"
#include "model/system_snapshot.hpp"
#include "niclab/system/system.hpp"

namespace niclab::gui {

class SystemSession {
public:
    // Throws ConfigError, FirmwareImageError, FirmwareFault (a boot fault), each naming
    // what is wrong.
    explicit SystemSession(const system::SystemSpec& spec);
    ~SystemSession();

    // Runs up to `slice` of simulated time; the result says whether anything was left
    // to do (a cluster whose cores all sleep with no event pending stops early).
    system::System::RunResult advance(Time slice);
    Time now() const { return sys_->now(); }
    // Loads (or reloads) `elf` on `nodes` (empty: all), each booted at once; the size
    // report, one line per node. Throws FirmwareImageError (nothing changes on that
    // node), FirmwareFault (it faulted while booting), BootTimeout, or niclab::Error for
    // a node that does not exist or has no embedded core.
    std::string load(const std::vector<size_t>& nodes, const std::string& elf);
    // Performs a Portals put or get (PortalsInjection), a GRIM operation
    // (GrimInjection) or sends a transport message (TransportInjection), and runs until
    // its events arrived.
    using Injection = std::variant<PortalsMessage, GrimMessage, TransportMessage>;
    InjectionOutcome inject(const Injection& m);
    // Reads every node; utilizations are over the time since the previous snapshot.
    SystemSnapshot snapshot();

private:
    std::vector<Cable> cables() const;
    std::shared_ptr<const std::vector<std::string>> counter_names(size_t n, uint64_t layout, size_t count);

    std::unique_ptr<system::System> sys_;
    PortalsInjection portals_{*sys_};  // after sys_: their host processes go first
    GrimInjection grim_{*sys_};
    TransportInjection transports_{*sys_};
    std::vector<double> busy_ps_;  // per network link: busy time at the last snapshot
    Time last_{};
    // The counters' names of each layout met so far (a system has one or a few).
    std::vector<std::pair<uint64_t, std::shared_ptr<const std::vector<std::string>>>> counter_layouts_;
};

}  // namespace niclab::gui
