// GRIM's native multicast as the multicast benchmark uses it (msg/group.hpp): groups are
// multicast trees (grim::Multicast, §8.1.4), a group send is one grim_sendMC, the
// unicast copies, replies and the stop are active messages to handlers registered with
// the global handler server (§4.4.1). A message larger than the endpoint's fragment is
// fragmented: the multicast by the library (§8.2.3, mc_fragments.hpp), the unicast
// copies the way the am transport does (§8.2.1: fragments copied into a reassembly
// buffer by the handler, whole at the last).
#include "niclab/systems/grim/group_messaging.hpp"

#include <algorithm>

#include "niclab/systems/grim/grim.hpp"

namespace niclab::grim {

namespace {

constexpr uint64_t kSrc = 0x2000'0000;             // the sender's message in host memory
constexpr uint64_t kUnicastReassembly = 0x7900'0000;  // a receiver's buffer for fragmented unicast copies

class GrimGroupMessaging final : public msg::GroupMessaging {
public:
    GrimGroupMessaging(system::System& sys, uint32_t node) : sys_(sys), node_(node) {}

    uint32_t node() const override { return node_; }
    uint64_t max_message() const override { return Multicast::kMaxMessage; }

    // The endpoint is made here, in the node's process, as the library's set-up.
    void set_handlers(Handlers h) override {
        ep_ = &endpoint(sys_, node_);
        handlers_ = std::move(h);
        data_ = ep_->register_handler("bench.mc.data", [this](host::ProcessContext& ctx, const ActiveMessage& m) { arrive(ctx, m); });
        reply_ = ep_->register_handler("bench.mc.reply", [this](host::ProcessContext&, const ActiveMessage& m) { handlers_.reply(m.src_node); });
        ep_->register_handler("bench.mc.stop", [this](host::ProcessContext&, const ActiveMessage& m) { handlers_.stop(m.src_node); });
    }
    uint32_t group(host::ProcessContext& ctx, const std::string& name, bool join) override {
        Multicast& mc = multicast(sys_, node_);
        const uint32_t id = mc.find_tree(name);
        if (join) mc.subscribe(ctx, id, 1u << mc.endpoint().lc());
        return id;
    }
    void prepare_send(uint64_t bytes) override {
        bytes_ = uint32_t(bytes);
        sys_.host_memory(node_).fill(kSrc, uint8_t(bytes), bytes);
    }
    void send_group(host::ProcessContext& ctx, uint32_t group, uint32_t seq) override {
        multicast(sys_, node_).send_mc(ctx, group, data_, {seq, 0, 0, 0}, kSrc, bytes_);
    }
    void send_to(host::ProcessContext& ctx, uint32_t node, uint32_t seq) override {
        const uint32_t fragment = ep_->fragment_bytes();
        if (bytes_ <= GRIM_MTU) {  // one message (as before fragmentation was built)
            ep_->am_send(ctx, node, data_, {seq, 0, 0, 0}, kSrc, bytes_);
            return;
        }
        // args: sequence, offset of this fragment, total bytes
        for (uint32_t off = 0; off < bytes_; off += fragment)
            ep_->am_send(ctx, node, data_, {seq, off, bytes_, 0}, kSrc + off, std::min(fragment, bytes_ - off));
    }
    void reply(host::ProcessContext& ctx, uint32_t node) override { ep_->am_send(ctx, node, reply_, {}, kSrc, 0); }
    void stop(host::ProcessContext& ctx, uint32_t node) override { ep_->am_send(ctx, node, ep_->resolve("bench.mc.stop"), {}, kSrc, 0); }
    void wait(host::ProcessContext& ctx, const std::function<bool()>& done) override { ep_->wait(ctx, done); }

private:
    void arrive(host::ProcessContext& ctx, const ActiveMessage& m) {
        const uint32_t off = m.args[1], total = m.args[2];
        if (total) {  // a fragment of a unicast copy: into the buffer; whole at its last byte
            ctx.copy(m.bytes);
            copy_.resize(m.bytes);
            sys_.host_memory(node_).read(m.payload_addr, copy_);
            sys_.host_memory(node_).write(kUnicastReassembly + off, copy_);
            if (off + m.bytes < total) return;
        }
        handlers_.data(m.src_node);
    }

    system::System& sys_;
    uint32_t node_;
    Endpoint* ep_ = nullptr;
    Handlers handlers_;
    uint32_t data_ = 0, reply_ = 0, bytes_ = 0;
    std::vector<uint8_t> copy_;
};

}  // namespace

std::unique_ptr<msg::GroupMessaging> make_group_messaging(system::System& sys, uint32_t node) {
    return std::make_unique<GrimGroupMessaging>(sys, node);
}

}  // namespace niclab::grim
