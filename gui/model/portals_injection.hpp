#pragma once
// The message injector's SeaStar half: a Portals put or get composed in the GUI,
// performed by the node's host library (the core's seastar::PortalsProcess, the one
// niclab.portals uses), the events both event queues deliver, and the bytes that
// arrived checked against what was sent. Runs on the system worker's thread.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/injection_outcome.hpp"
#include "niclab/sim/time.hpp"
#include "niclab/system/system.hpp"

namespace niclab::seastar {
class PortalsProcess;
}

namespace niclab::gui {

struct PortalsMessage {
    enum class Op { put, get };
    Op op = Op::put;
    size_t initiator = 0, target = 1;
    uint32_t pt_index = 4;
    uint64_t match_bits = 0;
    // The target's match entry: these bits (none: the message's), so a mismatch can be tried.
    std::optional<uint64_t> target_bits;
    uint64_t length = 64;         // bytes moved: the initiator's MD
    uint64_t remote_offset = 0;   // into the target's MD
    std::string pattern = "niclab";  // repeated to fill the payload; empty: bytes 0, 1, .. 255, 0, ..
    bool ack = true;              // put: ask for an acknowledgement
};

// The payload `m` carries: its pattern repeated to `m.length` bytes.
std::string payload_of(const PortalsMessage& m);

class PortalsInjection {
public:
    // Host physical addresses of the buffers on each node (as niclab.portals' example).
    static constexpr uint64_t kInitiatorBuffer = 0x100000, kTargetBuffer = 0x200000;
    static constexpr uint64_t kMaxLength = 1 << 20;
    // The injector's process id on every node: pid 0 is the transport's (experiments and
    // the transport form), and one interface per pid is what Portals allows.
    static constexpr uint32_t kPid = 2;
    // Simulated time allowed for the operation to finish before it is reported incomplete.
    static constexpr Time kPatience = Time::ms(20);

    explicit PortalsInjection(system::System& sys);
    ~PortalsInjection();

    // Why this system cannot take Portals messages ("" when it can).
    static std::string unsupported(system::System& sys);

    // Sets up the target's match entry and MD (pt_index, match bits), binds the
    // initiator's MD, performs the operation and runs the system until both sides
    // have their events (or kPatience passes). Throws InputError for a node that does
    // not exist or a length out of range, niclab::Error for a node without the Portals
    // firmware, PortalsError for what the library refuses at once.
    InjectionOutcome inject(const PortalsMessage& m);

private:
    // Node's interface (kPid), made again when a firmware reload retired its driver.
    seastar::PortalsProcess& process(size_t node);

    system::System& sys_;
    std::map<size_t, std::unique_ptr<seastar::PortalsProcess>> processes_;  // kPid of each node used
};

}  // namespace niclab::gui
