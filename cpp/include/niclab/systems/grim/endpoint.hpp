#pragma once
// GRIM's host library (seed 004 §4.4, §4.5, App. C): an endpoint owns one logical
// channel of its node's NI. Sending pushes the message into the LC's send queue in NI
// SRAM with programmed I/O (64-byte block stores, TPIL's PIO method, §5.2) and bumps
// the queue's back pointer; the NI does the rest. Active messages arrive in the
// endpoint's queue in pinned host memory and run their handlers when the endpoint
// polls (§4.4.2); RM-P writes land where the sender said, with an optional
// notification word (§4.5.5).
#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "niclab/host/condition.hpp"
#include "niclab/host/host_memory.hpp"
#include "niclab/host/process.hpp"
#include "niclab/systems/grim/lanai.hpp"

namespace niclab::grim {

struct EndpointParams {
    Time send_call;      // library work per send besides the PIO (header, queue arithmetic)
    Time poll;           // one poll of the queue's back count in host memory
    Time handler_call;   // dispatch of one active message to its handler
    uint32_t am_slots = 16;
    uint32_t nack_backoff_cycles = 0;
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
    static constexpr uint32_t kLc = 0;
    // Host memory the library takes on every node (pinned, physically contiguous).
    static constexpr uint64_t kQueueBase = 0x4000'0000;
    static constexpr uint64_t kBackWord = 0x3FFF'F000;
    static constexpr uint32_t kSlotBytes = 65536;  // a header and the 64,572-byte MTU fit
    // NI SRAM the driver gives the LC's send queue; the firmware gets the rest from
    // kBufferOffset on (control slots and the receive ring).
    static constexpr uint32_t kSendQueueOffset = 0x40000, kSendQueueBytes = 0x40000;
    static constexpr uint32_t kBufferOffset = 0x80000;

    // The driver's set-up of a node running GRIM (grim_enable()): writes the LC, the
    // routes and the configuration into the firmware's grim_shared and starts it.
    // Throws niclab::Error when the NIC runs other firmware.
    Endpoint(LanaiNic& nic, host::HostMemory& memory, const EndpointParams& params, const std::vector<std::vector<uint8_t>>& routes);

    uint32_t node() const { return nic_.node(); }
    // grim_register_handler: a name's id (§4.4.1). Ids are given in registration order;
    // nodes that register the same names in the same order agree on them (the global
    // handler server of §4.4.1 is not modelled yet).
    uint32_t register_handler(const std::string& name, Handler fn);
    uint32_t resolve(const std::string& name) const;

    // grim_send: an active message of `bytes` (<= GRIM_MTU) from host memory at `src`.
    void am_send(host::ProcessContext& ctx, uint32_t dst_node, uint32_t handler, const std::array<uint32_t, 4>& args, uint64_t src,
                 uint32_t bytes);
    // grim_sendPhysicalMemory: `bytes` from `src` to host physical `remote` on
    // `dst_node`; then `notify_value` to `notify` (0: no notification).
    void rm_write_p(host::ProcessContext& ctx, uint32_t dst_node, uint64_t remote, uint64_t src, uint32_t bytes, uint64_t notify,
                    uint32_t notify_value, uint32_t user = 0);
    // grim_poll: runs the handlers of every active message that has arrived; returns
    // how many.
    uint32_t poll(host::ProcessContext& ctx);
    // Blocks (polling) until `done()` holds, polling active messages meanwhile.
    void wait(host::ProcessContext& ctx, const std::function<bool()>& done);

    // The firmware's counters (read through the debug back door: no simulated time).
    uint32_t counter(const char* name) const;
    static const std::vector<std::string>& counter_names();
    uint32_t shared_address() const { return shared_; }

private:
    void push(host::ProcessContext& ctx, const std::array<uint32_t, 8>& header, uint64_t src, uint32_t bytes);
    uint32_t lc_field(uint32_t offset) const;  // SRAM address of a field of lc[kLc]

    LanaiNic& nic_;
    host::HostMemory& memory_;
    EndpointParams params_;
    uint32_t shared_ = 0;          // address of grim_shared (uncached view)
    uint32_t back_ = 0;            // send queue: bytes appended
    uint32_t front_seen_ = 0;      // the NI's front as last read
    uint32_t am_front_ = 0;        // AM queue: slots consumed
    std::vector<std::pair<std::string, Handler>> handlers_;
    host::Condition arrived_;
};

}  // namespace niclab::grim
