#pragma once
// GRIM's host library (seed 004 §4.4, §4.5, App. C): an endpoint owns one logical
// channel of its node's NI. Sending pushes the message into the LC's send queue in NI
// SRAM with programmed I/O (64-byte block stores, TPIL's PIO method, §5.2) and bumps
// the queue's back pointer; the NI does the rest. Active messages arrive in the
// endpoint's queue in pinned host memory and run their handlers when the endpoint
// polls (§4.4.2); RM-P writes land where the sender said, with an optional
// notification word (§4.5.5). Remote memory by virtual address (RM-V, RM-RV, §4.5.3-4)
// needs registered memory (vm.hpp): the library programs the NI's static translation
// entries for its contiguous blocks, the driver's ISR (translator.hpp) fills the rest
// on demand.
#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "niclab/fw/grim_fw.h"
#include "niclab/host/condition.hpp"
#include "niclab/host/host_memory.hpp"
#include "niclab/host/process.hpp"
#include "niclab/systems/grim/handler_server.hpp"
#include "niclab/systems/grim/lanai.hpp"
#include "niclab/systems/grim/translator.hpp"
#include "niclab/systems/grim/vm.hpp"

namespace niclab::grim {

struct EndpointParams {
    Time send_call;      // library work per send besides the PIO (header, queue arithmetic)
    Time poll;           // one poll of the queue's back count in host memory
    Time handler_call;   // dispatch of one active message to its handler
    uint32_t am_slots = 16;
    // Logical channels the driver configures the NI to scan (grim.lcs, 1..GRIM_MAX_LCS,
    // §4.3.4): each has its own send queue, a share of the NI's send-queue SRAM.
    uint32_t lcs = 1;
    uint32_t nack_backoff_cycles = 0;
    // The NI's retransmission timer (scoreboard.c): resend after this many core cycles
    // without an answer, give up after resend_limit resends (0: never).
    uint32_t resend_timeout_cycles = 0;
    uint32_t resend_limit = 0;
    // The library's fragment size per data path of the firmware (GRIM_DP_*: store-and-
    // forward, pipelined, cut-through, §5.5) and, cut-through, its injection segment.
    std::array<uint32_t, 3> fragment_bytes{63 * 1024, 63 * 1024, 63 * 1024};
    uint32_t segment_bytes = 0;
    TranslatorParams translator;  // the driver's translation ISR
};

// A message the NI gave up on: its target NI answered none of resend_limit
// retransmissions (link errors, or a dead node). Raised at the next poll or wait.
class DeliveryError : public Error {
public:
    DeliveryError(const std::string& what, uint32_t node, uint32_t type) : Error(what), node_(node), type_(type) {}
    uint32_t node() const { return node_; }  // the target
    uint32_t type() const { return type_; }  // GRIM_T_* of the message

private:
    uint32_t node_, type_;
};

struct ActiveMessage {
    uint32_t src_node = 0;
    uint32_t handler = 0;
    std::array<uint32_t, 4> args{};
    uint64_t payload_addr = 0;  // host address of the payload in the receive queue
    uint32_t bytes = 0;
};

class Endpoint {
public:
    using Handler = std::function<void(host::ProcessContext&, const ActiveMessage&)>;
    // Host memory the library takes on every node (pinned, physically contiguous): LC
    // k's AM queue at kQueueBase + k * am_slots * kSlotBytes, its back count at
    // kBackWord + 4k.
    static constexpr uint64_t kQueueBase = 0x4000'0000, kQueueEnd = 0x5000'0000;
    static constexpr uint64_t kBackWord = 0x3FFF'F000;
    // Kernel memory of the driver: translation requests from the NI, error records
    // (one per LC).
    static constexpr uint64_t kXlateRequest = 0x3FFF'D000, kErrorRecord = 0x3FFF'C000;
    static constexpr uint32_t kSlotBytes = 65536;  // a header and the 64,572-byte MTU fit
    // NI SRAM the driver gives the LCs' send queues (split evenly, a power of two each:
    // "as the number of logical channels increases, the buffer capacity of each
    // logical channel decreases", L865); the firmware gets the rest from kBufferOffset
    // on (control slots and the receive ring). Below kSendQueueOffset: the image and
    // the multicast queue (a power of two of at least one MTU message, multicast.c).
    static constexpr uint32_t kSendQueueOffset = 0x50000, kSendQueueBytes = 0x40000;
    static constexpr uint32_t kBufferOffset = 0x90000;

    // The driver's set-up of a node running GRIM (grim_enable()): writes the LCs, the
    // routes and the configuration into the firmware's grim_shared and starts it, and
    // opens this endpoint on LC 0. Throws niclab::Error when the NIC runs other
    // firmware. `handlers` is the system's global handler server (§4.4.1).
    Endpoint(LanaiNic& nic, host::HostMemory& memory, const EndpointParams& params, const std::vector<std::vector<uint8_t>>& routes,
             HandlerServer& handlers);
    // Another endpoint of the same node and process on logical channel `lc` (each
    // endpoint owns its LC, L857-859): the driver gives it its send queue and AM queue
    // and enables it while the NI runs. It shares `first`'s registered memory and
    // translation ISR. system::ConfigError naming "lc" when `lc` is not one of the
    // node's configured LCs or is open already.
    Endpoint(Endpoint& first, uint32_t lc);

    uint32_t node() const { return nic_.node(); }
    uint32_t lc() const { return lc_; }
    uint32_t lcs() const { return params_.lcs; }
    uint32_t send_queue_bytes() const { return sq_bytes_; }
    // The largest message this LC's send queue takes (an entry is never split and
    // must fit in half the queue, so the wrap can always be made): the MTU, less with
    // many LCs.
    uint32_t max_message_bytes() const;
    // The firmware image's data path (GRIM_DP_*, grim_fw.h) and what the library does
    // for it: the largest message its transports send in one piece (fragmentation and
    // reassembly, §5.5.2, §8.2) and, cut-through, the segment after which it tells the
    // NI how much of a message is in (§5.5.4, L1457; 0: the whole message first).
    uint32_t datapath() const { return datapath_; }
    uint32_t fragment_bytes() const { return std::min(params_.fragment_bytes[datapath_], max_message_bytes() & ~(GRIM_QUEUE_ALIGN - 1u)); }
    uint32_t segment_bytes() const { return datapath_ == GRIM_DP_CUT_THROUGH ? params_.segment_bytes : 0; }
    // grim_register_handler: this endpoint's function for `name`, whose id the global
    // handler server gives (§4.4.1): the same name has the same id on every node.
    uint32_t register_handler(const std::string& name, Handler fn);
    // A name's id from the handler server (registered on any node); Error if none.
    uint32_t resolve(const std::string& name) const;

    // grim_send: an active message of `bytes` (<= max_message_bytes()) from host memory
    // at `src` to the endpoint on LC `dst_lc` of `dst_node` (ConfigError naming "lc"
    // when the node has no such LC). Ordered only with this LC's earlier messages to
    // the same LC (§4.3.2, L1093).
    void am_send(host::ProcessContext& ctx, uint32_t dst_node, uint32_t handler, const std::array<uint32_t, 4>& args, uint64_t src,
                 uint32_t bytes, uint32_t dst_lc = 0);
    // grim_sendPhysicalMemory: `bytes` from `src` to host physical `remote` on
    // `dst_node`; then `notify_value` to `notify` (0: no notification). rm_write_p,
    // rm_write_v and rm_read split a transfer larger than GRIM_MTU into fragment_bytes()
    // pieces with the notification or lock on the last only (§8.2.2).
    void rm_write_p(host::ProcessContext& ctx, uint32_t dst_node, uint64_t remote, uint64_t src, uint32_t bytes, uint64_t notify,
                    uint32_t notify_value, uint32_t user = 0);
    // Registered memory (§4.5.1, App. C.5.1). malloc_pinned: contiguous; each new 4 MB
    // block gets one of the NI's static translation entries while there are free ones
    // (programmed through the driver, untimed: set-up the thesis does not measure).
    // pin_pages: page-pinned user memory, translated by the NI on demand.
    uint32_t malloc_pinned(uint32_t bytes);
    uint32_t pin_pages(uint32_t bytes);
    AddressSpace& memory() { return driver_->space; }
    const AddressSpace& memory() const { return driver_->space; }
    // grim_sendMemory with a lock (App. C.5.2): `bytes` from the local registered `src`
    // to the registered virtual address `remote` on `dst_node`; then `notify_value` to
    // the remote word at virtual `notify` (0: none). The remote NI translates (RM-V).
    void rm_write_v(host::ProcessContext& ctx, uint32_t dst_node, uint32_t remote, uint32_t src, uint32_t bytes, uint32_t notify,
                    uint32_t notify_value, uint32_t user = 0);
    // grim_fetchMemory (§4.5.4): `bytes` from virtual `remote` on `dst_node`
    // into local registered `local`; then zero to the local word at `lock` (0: none).
    // MemoryError at once if `local` or `lock` is not registered here.
    void rm_read(host::ProcessContext& ctx, uint32_t dst_node, uint32_t remote, uint32_t local, uint32_t bytes, uint32_t lock);
    // A registered word of this process (its own load: no simulated time).
    uint32_t word(uint32_t va) const;
    // The driver's translation ISR: interrupts taken.
    const Translator& translator() const { return *driver_->translator; }
    // Stops serving the card (its firmware was reloaded; a new endpoint takes over).
    void retire();

    // grim_poll: runs the handlers of every active message that has arrived; returns
    // how many.
    uint32_t poll(host::ProcessContext& ctx);
    // Blocks (polling) until `done()` holds, polling active messages meanwhile.
    // poll and wait throw MemoryError when the NI reports a remote memory operation of
    // this endpoint refused (its target memory not registered there), DeliveryError
    // when it gave a message up.
    void wait(host::ProcessContext& ctx, const std::function<bool()>& done);

    // The firmware's counters (read through the debug back door: no simulated time).
    uint32_t counter(const char* name) const;
    // Of this endpoint's LC: messages the NI sent again (grim_lc.resent).
    uint32_t resent() const;
    static const std::vector<std::string>& counter_names();
    uint32_t shared_address() const { return shared_; }

private:
    friend class Multicast;  // multicast.hpp: injects through this endpoint's LC
    // The entry into the send queue; the payload from host physical `src`, or from
    // the process's virtual `src` when `space` is given.
    void push(host::ProcessContext& ctx, const std::array<uint32_t, 8>& header, uint64_t src, uint32_t bytes,
              const AddressSpace* space = nullptr);
    // Send-queue bytes an entry of `bytes` takes now (with the skip to the queue's
    // start when it would wrap), and whether that many are free (one PIO load of the
    // NI's front when the last one seen leaves too little).
    uint32_t queue_need(uint32_t bytes) const;
    bool send_room(host::ProcessContext& ctx, uint32_t need);
    void check_errors();
    bool dispatching_ = false;  // a handler is running (poll() is not re-entrant)
    void check_node(const char* call, uint32_t dst_node) const;
    uint32_t lc_field(uint32_t offset) const;  // SRAM address of a field of lc[lc_]
    void open_lc();  // the driver writes this endpoint's LC block and enables it
    // What the endpoints of one node share: the process's registered memory, the
    // driver's translation ISR and static entries, the LCs open.
    struct Driver {
        explicit Driver(uint32_t node) : space(node) {}
        AddressSpace space;
        std::unique_ptr<Translator> translator;
        uint32_t static_entries = 0;  // static translation entries programmed
        uint32_t open = 0;            // bit k: LC k has an endpoint
        host::Condition arrived;      // a DMA from the NI landed
    };

    LanaiNic& nic_;
    host::HostMemory& memory_;
    EndpointParams params_;
    uint32_t lc_ = 0;
    uint32_t sq_offset_ = 0, sq_bytes_ = 0;  // this LC's send queue in NI SRAM
    uint64_t queue_base_ = 0, back_word_ = 0, error_record_ = 0;  // its AM queue, back count, error record
    uint32_t shared_ = 0;          // address of grim_shared (uncached view)
    uint32_t datapath_ = GRIM_DP_STORE_FORWARD;
    uint32_t back_ = 0;            // send queue: bytes appended
    uint32_t front_seen_ = 0;      // the NI's front as last read
    uint32_t am_front_ = 0;        // AM queue: slots consumed
    HandlerServer& server_;
    std::map<uint32_t, Handler> handlers_;  // by the server's id
    std::shared_ptr<Driver> driver_;
    uint32_t errors_seen_ = 0;
};

}  // namespace niclab::grim
