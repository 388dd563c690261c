#pragma once
// The message injector's GRIM half (seed 004): one operation composed in the GUI and
// performed by GRIM's host library itself (grim::Endpoint, grim::Multicast, the calls
// the C++ tests and niclab.grim use) on the cluster the system view built:
//   active message  grim_send to a handler registered by name (§4.4.1), run when the
//                   target's endpoint polls (§4.4.2);
//   RM-P write      grim_sendPhysicalMemory into the target's pinned memory by physical
//                   address, then the notification word (§4.5.5);
//   RM-V write      the same into registered memory by virtual address: the target NI
//                   translates (its static entries, or a miss the driver's ISR fills);
//   RM read         grim_fetchMemory (RM-RV): the reply lands in the reader's
//                   registered memory and zeroes its lock word (§4.5.4);
//   multicast       grim_findMulticastTree / subscribeMulticast / sendMC (§8.1): the
//                   handler runs on every member of the group.
// The outcome lists the steps with their simulated times, checks every delivered byte
// against the payload sent, and gives the NI counters of the nodes involved across the
// operation (ACKs, NACKs, resends, translation hits and misses, deliveries). Runs on the
// system worker's thread.
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "model/injection_outcome.hpp"
#include "niclab/sim/time.hpp"
#include "niclab/system/system.hpp"

namespace niclab::grim {
class Endpoint;
}

namespace niclab::gui {

struct GrimMessage {
    enum class Op { am, rm_p, rm_v, rm_read, multicast };
    // Where an RM-V write lands or an RM read reads on the target: malloc_pinned memory
    // (the NI's static translation entry), page-pinned memory (the NI's translation
    // cache, filled by the driver on a miss), or an address nobody registered (the
    // target NI refuses: the sender's library raises MemoryError).
    enum class Memory { contiguous, pages, unregistered };
    Op op = Op::am;
    size_t sender = 0;             // the node whose endpoint sends (the reader, for an RM read)
    size_t target = 1;             // AM and RM operations
    std::vector<size_t> members;   // multicast: the group's nodes (the sender may be one)
    std::string group = "gui.group";     // multicast: the tree's name
    std::string handler = "gui.inject";  // AM and multicast: the handler's name
    std::array<uint32_t, 4> args{};      // AM and multicast: the handler's arguments
    uint64_t bytes = 64;
    uint64_t remote_offset = 0;    // RM operations: into the target's buffer
    Memory memory = Memory::contiguous;  // RM-V write and RM read
    uint32_t notify_value = 1;     // RM writes: written to the target's notification word last
    std::string pattern = "GRIM";  // repeated to fill the payload; empty: bytes 0, 1, .. 255, 0, ..
};

const char* to_string(GrimMessage::Op op);

class GrimInjection {
public:
    static constexpr uint64_t kMaxBytes = 1 << 20;    // RM and multicast: fragmented above GRIM_MTU by the library
    static constexpr uint64_t kMaxOffset = 1 << 16;
    // assumption: an address no GRIM process registers: between the contiguous blocks
    // (from AddressSpace::kPinnedVa, 4 MB each) and the page-pinned memory (kPagesVa).
    static constexpr uint32_t kUnregisteredVa = 0xB000'0000;
    // Simulated time allowed before the operation is reported incomplete.
    static constexpr Time kPatience = Time::ms(20);

    explicit GrimInjection(system::System& sys);
    ~GrimInjection();

    // Why this system cannot take GRIM operations ("" when it can).
    static std::string unsupported(system::System& sys);
    // The NI counters the outcome reports (System::counters names, and the driver's
    // translation interrupts as "driver.xlate_interrupts").
    static const std::vector<std::string>& counter_names();

    // Performs `m` and runs the system until every step it owes happened (or kPatience
    // passes, or nothing is left to do). Throws InputError naming the field for nodes,
    // sizes, names out of range, niclab::Error for a node that does not run the GRIM
    // firmware. What the library raises while performing it (DeliveryError,
    // MemoryError, MulticastError) and a NIC fault are the outcome's errors.
    InjectionOutcome inject(const GrimMessage& m);

    // What a handler saw of one active message (shared with the handlers registered).
    struct Arrival {
        size_t node = 0;
        Time time{};
        uint32_t src_node = 0;
        std::array<uint32_t, 4> args{};
        uint64_t bytes = 0, matching = 0;
    };

private:
    // The registered memory the injector uses on a node, made with its endpoint (a
    // firmware reload starts a fresh endpoint with a fresh address space).
    struct Buffers {
        const grim::Endpoint* endpoint = nullptr;
        uint32_t src = 0;         // contiguous: what is sent, and where a read's reply lands
        uint32_t contiguous = 0;  // contiguous: RM-P and RM-V (Memory::contiguous) targets
        uint32_t pages = 0;       // page-pinned: Memory::pages targets
        uint32_t word = 0;        // the notification (or lock) word
    };
    void validate(const GrimMessage& m) const;
    Buffers& buffers(size_t node);
    void register_handler(size_t node, const std::string& name);
    uint32_t remote_region(const GrimMessage& m);  // VA on the target of an RM-V write / RM read
    void join_group(const GrimMessage& m, const std::vector<size_t>& members, uint32_t tree, InjectionOutcome& out);
    std::vector<CounterChange> counters(const std::vector<size_t>& nodes) const;

    system::System& sys_;
    std::map<size_t, Buffers> buffers_;
    std::set<std::string> handler_names_;  // registered by the injector (others' are refused)
    struct Arrivals {
        std::string payload;
        std::vector<Arrival> got;
    };
    std::shared_ptr<Arrivals> arrivals_ = std::make_shared<Arrivals>();
};

}  // namespace niclab::gui
