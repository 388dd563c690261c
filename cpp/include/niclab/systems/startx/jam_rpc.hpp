#pragma once
// JAM RPC (seed 002 §6.2 L234-239): JAM_rpc() launches a procedure (a handler index) on a
// remote node with an argument buffer of any size, without waiting; JAM_poll() services
// the network and runs the calls that have arrived whole. The library switches between
// PIO and RDMA by argument size (threshold: RpcParams::pio_max_bytes, an assumption).
//
//  PIO path: low-priority messages (so RPC never competes with an RDMA stream for the
//     high-priority path, §5.3 L186); the first carries a 16-byte RPC header (handler,
//     size, 64-bit tag) in front of the argument, all of it split into 88-byte messages
//     and reassembled per sender in the receiver's argument region.
//  RDMA path: the exclusive-access protocol as low-priority control messages: a request
//     (size, tag, handler); the receiver's JAM_poll opens an RDMA window into the sender's
//     argument region and grants; the sender's JAM_poll then programs the headers and
//     starts the DMA; the receiver's JAM_poll sees the window full and runs the handler.
//
// Threads of an SMP share one NIU through a lock (L239): every JAM_rpc and JAM_poll pays
// its acquire and release (RpcParams::lock_cycles); one process uses it here.
#include <cstdint>
#include <deque>
#include <functional>
#include <vector>

#include "niclab/host/process.hpp"
#include "niclab/systems/startx/jam.hpp"

namespace niclab::startx {

struct RpcParams {
    uint32_t pio_max_bytes = 1024;   // arguments up to this go by PIO, larger by RDMA
    uint32_t dispatch_cycles = 50;   // JAM_poll finding and calling a handler
    uint32_t lock_cycles = 40;       // the NIU lock, per JAM_rpc / JAM_poll
    uint64_t max_arg_bytes = 16ull << 20;
};

struct RpcCall {
    uint32_t src = 0;
    uint32_t handler = 0;
    uint64_t addr = 0;   // the argument in the receiver's host memory
    uint64_t bytes = 0;
    uint64_t tag = 0;
};

class JamRpc {
public:
    using Handler = std::function<void(host::ProcessContext&, const RpcCall&)>;
    static constexpr uint32_t kHandlers = 256;
    static constexpr uint32_t kHeaderBytes = 16;

    JamRpc(Jam& jam, RpcParams params = {});

    Jam& jam() { return jam_; }
    const RpcParams& params() const { return params_; }
    // Handler `index` (< 256) runs the calls that name it.
    void set_handler(uint32_t index, Handler handler);

    // JAM_rpc: launches handler `handler` on `dst` with the `bytes` at `addr` as argument.
    // Returns once the PIO messages are written or the RDMA request is sent; the buffer
    // must stay untouched until idle() (RDMA path).
    void call(host::ProcessContext& ctx, uint32_t dst, uint32_t handler, uint64_t addr, uint64_t bytes,
              uint64_t tag = 0);
    // JAM_poll: one pass over the network; returns how many things it did (messages
    // taken, DMAs started, handlers run).
    uint32_t poll(host::ProcessContext& ctx);
    // Polls (status reads) until there is something for poll() to do.
    void wait(host::ProcessContext& ctx);
    // No outgoing RDMA call is waiting for its grant or streaming.
    bool idle() const { return out_.empty() && !tx_active_; }

private:
    struct Assembly {
        bool active = false;
        uint32_t handler = 0;
        uint64_t bytes = 0, tag = 0, offset = 0;
    };
    struct Outgoing {
        uint32_t dst = 0, handler = 0;
        uint64_t addr = 0, bytes = 0, tag = 0;
        bool granted = false;
    };
    struct Incoming {
        uint32_t src = 0, handler = 0;
        uint64_t bytes = 0, tag = 0;
    };

    uint64_t arg_region(uint32_t src) const { return arg_base_ + uint64_t(src) * params_.max_arg_bytes; }
    void send_low(host::ProcessContext& ctx, uint32_t dst, uint32_t word1, uint64_t buf, uint32_t words);
    void take(host::ProcessContext& ctx);
    void handle_fragment(host::ProcessContext& ctx, const JamMessage& m);
    void handle_control(host::ProcessContext& ctx, const JamMessage& m);
    void open_next_window(host::ProcessContext& ctx);
    void dispatch(host::ProcessContext& ctx, const RpcCall& call);
    bool work_known() const;

    Jam& jam_;
    RpcParams params_;
    std::vector<Handler> handlers_;
    uint64_t arg_base_ = 0, tx_buf_ = 0, rx_buf_ = 0, grant_buf_ = 0;
    std::vector<Assembly> assembly_;      // per sender
    std::deque<Outgoing> out_;            // RDMA calls: requested, then granted
    bool tx_active_ = false;
    std::deque<Incoming> in_;             // RDMA requests; the front one owns the window
    bool window_open_ = false;
};

}  // namespace niclab::startx
