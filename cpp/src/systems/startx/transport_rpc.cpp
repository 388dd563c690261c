// The rpc transport: JAM_rpc of a handler that checks the argument against the pattern
// and hands it to recv(); JAM_poll drives everything (seed 002 §6.2).
#include "niclab/systems/startx/jam_rpc.hpp"
#include "transport_base.hpp"
#include "transport_factory.hpp"

namespace niclab::startx {

namespace {

class RpcTransport final : public JamTransportBase {
public:
    RpcTransport(const TransportContext& tc, uint32_t peer, uint64_t seed)
        : JamTransportBase("rpc", tc.jam, peer, seed), rpc_(tc.rpc) {
        if (!rpc_) throw msg::TransportError("the rpc transport needs the node's JAM RPC");
        if (peer + 1 >= JamRpc::kHandlers || node() + 1 >= JamRpc::kHandlers)
            throw msg::TransportError("the rpc transport names its handler by node: nodes 0..254 only");
    }

    void open(host::ProcessContext&, uint64_t max_bytes) override {
        check_size(max_bytes, std::min<uint64_t>(kMaxTransportMessage, rpc_->params().max_arg_bytes));
        max_bytes_ = std::max<uint64_t>(max_bytes, 1);
        send_buf_ = jam_.allocate(max_bytes_ + 4, 64);
        // Calls from the peer name handler 1 + peer here.
        rpc_->set_handler(1 + peer_, [this](host::ProcessContext&, const RpcCall& c) {
            if (c.bytes > max_bytes_) protocol_error("a call of " + std::to_string(c.bytes) + " B, beyond open()'s " + std::to_string(max_bytes_));
            msg::check_pattern(jam_.memory(), c.addr, c.bytes, recv_key(c.bytes), node(), peer_, "JAM RPC argument");
            deliver(c.bytes, c.tag);
        });
        opened_ = true;
    }

    void prepare_send(host::ProcessContext& ctx, uint64_t bytes) override {
        check_open(bytes);
        wait_sends(ctx);
        send_bytes_ = bytes;
        msg::fill_pattern(jam_.memory(), send_buf_, bytes, send_key(bytes));
    }

    void send(host::ProcessContext& ctx, uint64_t tag) override {
        if (!opened_) check_open(0);
        rpc_->call(ctx, peer_, 1 + node(), send_buf_, send_bytes_, tag);
    }

    msg::Received recv(host::ProcessContext& ctx) override {
        if (!opened_) check_open(0);
        while (ready_.empty())
            if (rpc_->poll(ctx) == 0) rpc_->wait(ctx);
        return pop_ready();
    }

    void wait_sends(host::ProcessContext& ctx) override {
        while (!rpc_->idle())
            if (rpc_->poll(ctx) == 0) rpc_->wait(ctx);
    }

    void poll(host::ProcessContext& ctx) override {
        if (!opened_) check_open(0);
        rpc_->poll(ctx);
    }

private:
    JamRpc* rpc_;
    uint64_t send_buf_ = 0;
};

}  // namespace

std::unique_ptr<msg::Transport> make_rpc_transport(const TransportContext& tc, uint32_t peer, uint64_t seed) {
    return std::make_unique<RpcTransport>(tc, peer, seed);
}

}  // namespace niclab::startx
