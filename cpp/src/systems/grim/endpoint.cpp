// GRIM's host library: the driver's set-up and an endpoint's calls (endpoint.hpp).
#include "niclab/systems/grim/endpoint.hpp"

#include <algorithm>
#include <cstddef>

#include "niclab/fw/grim_fw.h"
#include "niclab/fw/lanai.h"
#include "niclab/sim/error.hpp"
#include "niclab/system/config_error.hpp"
#include "niclab/systems/grim/multicast.hpp"

namespace niclab::grim {

namespace {
constexpr uint32_t kLcBase = offsetof(grim_shared, lc);
constexpr uint32_t kLcStride = sizeof(grim_lc);

uint32_t be(uint32_t v) { return __builtin_bswap32(v); }
const char* type_name(uint32_t type) {
    switch (type) {
        case GRIM_T_RM_V: return "RM-V write";
        case GRIM_T_AM: return "active message";
        case GRIM_T_RM_P: return "RM-P write";
        case GRIM_T_RM_RV: return "RM-RV read";
        case GRIM_T_MC: return "multicast";
        case GRIM_T_MC_UPDATE: return "multicast tree update";
        default: return "remote memory operation";
    }
}
// An LC number a node does not have (every node has grim.lcs of them), named as the key `lc`.
system::ConfigError no_such_lc(const std::string& call, uint32_t node, uint32_t lc, uint32_t lcs) {
    return system::ConfigError("lc", call + "node " + std::to_string(node) + " has logical channels 0.." + std::to_string(lcs - 1) +
                                         " (grim.lcs " + std::to_string(lcs) + "), not " + std::to_string(lc));
}
// "a" or "an" before type_name(type): "an active message", "an RM-P write", "a multicast".
const char* article(uint32_t type) {
    const char c = type_name(type)[0];
    return c == 'a' || c == 'R' ? "an" : "a";
}

// §8.2.2 (L2127): a remote memory transfer larger than one message is a series of
// smaller ones of the endpoint's fragment size, `op(offset, bytes, last)` each; the
// caller attaches the lock or notification to the last only. GRIM runs one sender's
// RM messages in order, so that update comes after every fragment's data. No copy.
template <class Op>
void in_fragments(uint32_t bytes, uint32_t fragment, Op op) {
    for (uint32_t off = 0;;) {
        const uint32_t n = std::min(fragment, bytes - off);
        op(off, n, off + n == bytes);
        off += n;
        if (off == bytes) return;
    }
}
}  // namespace

Endpoint::Endpoint(LanaiNic& nic, host::HostMemory& memory, const EndpointParams& params,
                   const std::vector<std::vector<uint8_t>>& routes, HandlerServer& handlers)
    : nic_(nic), memory_(memory), params_(params), server_(handlers), driver_(std::make_shared<Driver>(nic.node())) {
    if (params_.lcs == 0 || params_.lcs > GRIM_MAX_LCS)
        throw system::ConfigError("grim.lcs", "GRIM's firmware scans 1.." + std::to_string(GRIM_MAX_LCS) + " logical channels, not " +
                                                  std::to_string(params_.lcs));
    if (kQueueBase + uint64_t(params_.lcs) * params_.am_slots * kSlotBytes > kQueueEnd)
        throw system::ConfigError("grim.am_slots", std::to_string(params_.lcs) + " LCs' AM queues of " + std::to_string(params_.am_slots) +
                                                       " slots of 64 KB do not fit the library's 256 MB of queue memory");
    nic::EmbeddedNic& e = nic_.nic();
    const fw::FirmwareImage* image = e.image();
    if (!image || !image->find_symbol("grim_shared", shared_))
        throw Error("node " + std::to_string(node()) + " does not run GRIM firmware (no grim_shared symbol" +
                    (image ? " in " + image->path().filename().string() : ", no firmware loaded") + ")");
    if (e.peek32(shared_ + offsetof(grim_shared, magic)) != GRIM_FW_MAGIC ||
        e.peek32(shared_ + offsetof(grim_shared, version)) != GRIM_FW_VERSION)
        throw Error("node " + std::to_string(node()) + ": the GRIM firmware has not started (or is another version)");
    for (const auto& s : image->segments())
        if (s.sram_offset + s.mem_size > kSendQueueOffset)
            throw Error("node " + std::to_string(node()) + ": the firmware image reaches into the send queue at SRAM offset " +
                        std::to_string(kSendQueueOffset));
    if (routes.size() > GRIM_MAX_NODES) throw Error("GRIM's firmware has routes for " + std::to_string(GRIM_MAX_NODES) + " nodes");
    uint32_t datapath_word = 0;
    if (image->find_symbol("grim_datapath", datapath_word)) {
        datapath_ = e.peek32(datapath_word);
        if (datapath_ > GRIM_DP_CUT_THROUGH)
            throw Error("node " + std::to_string(node()) + ": the GRIM firmware names data path " + std::to_string(datapath_) +
                        ", which this library does not know");
    }

    // grim_enable(): the driver's configuration, written before the firmware is told
    // to go (set-up, not timed: the thesis measures nothing of it).
    auto put = [&](uint32_t field, uint32_t v) { e.poke32(shared_ + field, v); };
    put(offsetof(grim_shared, nodes), uint32_t(routes.size()));
    put(offsetof(grim_shared, sram_bytes), nic_.sram_bytes());
    put(offsetof(grim_shared, buffer_offset), kBufferOffset);
    put(offsetof(grim_shared, nack_backoff_cycles), params_.nack_backoff_cycles);
    put(offsetof(grim_shared, resend_timeout_cycles), params_.resend_timeout_cycles);
    put(offsetof(grim_shared, resend_limit), params_.resend_limit);
    put(offsetof(grim_shared, node), node());
    put(offsetof(grim_shared, lcs), params_.lcs);
    for (uint32_t n = 0; n < routes.size(); ++n) {
        uint32_t bytes = 0;
        for (size_t i = 0; i < routes[n].size(); ++i) bytes |= uint32_t(routes[n][i]) << (8 * i);
        put(offsetof(grim_shared, routes) + n * sizeof(grim_route) + offsetof(grim_route, bytes), bytes);
        put(offsetof(grim_shared, routes) + n * sizeof(grim_route) + offsetof(grim_route, length), uint32_t(routes[n].size()));
    }
    open_lc();
    put(offsetof(grim_shared, xlate) + offsetof(grim_xlate, request_host_addr), uint32_t(kXlateRequest));
    driver_->translator = std::make_unique<Translator>(nic_, memory_, driver_->space, shared_, kXlateRequest, params_.translator);
    put(offsetof(grim_shared, go), 1);
    nic_.set_host_write_hook([d = driver_] { d->arrived.notify_all(); });
    e.control().raise_external(NICLAB_IRQ_DOORBELL);
}

Endpoint::Endpoint(Endpoint& first, uint32_t lc)
    : nic_(first.nic_), memory_(first.memory_), params_(first.params_), lc_(lc), shared_(first.shared_), datapath_(first.datapath_),
      server_(first.server_), driver_(first.driver_) {
    if (lc >= params_.lcs) throw no_such_lc("", node(), lc, params_.lcs);
    if (driver_->open >> lc & 1u)
        throw system::ConfigError("lc", "node " + std::to_string(node()) + ": logical channel " + std::to_string(lc) +
                                            " has an endpoint already (each endpoint owns its LC, L857)");
    open_lc();
}

// The driver's part of opening an endpoint: its share of the send-queue SRAM, its AM
// queue, back count and error record in host memory, written into its LC block before
// `enabled` (untimed set-up; the NI looks at no other field of a disabled LC).
void Endpoint::open_lc() {
    uint32_t share = 1;
    while (share < params_.lcs) share <<= 1;
    sq_bytes_ = kSendQueueBytes / share;
    sq_offset_ = kSendQueueOffset + lc_ * sq_bytes_;
    queue_base_ = kQueueBase + uint64_t(lc_) * params_.am_slots * kSlotBytes;
    back_word_ = kBackWord + 4ull * lc_;
    error_record_ = kErrorRecord + uint64_t(lc_) * sizeof(grim_error_record);
    nic::EmbeddedNic& e = nic_.nic();
    auto put = [&](uint32_t field, uint32_t v) { e.poke32(lc_field(field), v); };
    put(offsetof(grim_lc, sq_offset), sq_offset_);
    put(offsetof(grim_lc, sq_bytes), sq_bytes_);
    put(offsetof(grim_lc, rq_host_addr), uint32_t(queue_base_));
    put(offsetof(grim_lc, rq_slots), params_.am_slots);
    put(offsetof(grim_lc, rq_slot_bytes), kSlotBytes);
    put(offsetof(grim_lc, rq_back_host_addr), uint32_t(back_word_));
    put(offsetof(grim_lc, err_host_addr), uint32_t(error_record_));
    memory_.write(back_word_, std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(&am_front_), 4));
    memory_.fill(error_record_, 0, sizeof(grim_error_record));
    put(offsetof(grim_lc, enabled), 1);
    driver_->open |= 1u << lc_;
}

uint32_t Endpoint::max_message_bytes() const { return std::min<uint32_t>(GRIM_MTU, sq_bytes_ / 2 - GRIM_HEADER_BYTES); }

uint32_t Endpoint::lc_field(uint32_t offset) const { return shared_ + kLcBase + lc_ * kLcStride + offset; }

uint32_t Endpoint::register_handler(const std::string& name, Handler fn) {
    const uint32_t id = server_.submit(name);
    handlers_[id] = std::move(fn);  // a second registration of the name replaces the function
    return id;
}

uint32_t Endpoint::resolve(const std::string& name) const {
    if (const auto id = server_.find(name)) return *id;
    throw Error("node " + std::to_string(node()) + ": no GRIM handler named '" + name + "'");
}

void Endpoint::push(host::ProcessContext& ctx, const std::array<uint32_t, 8>& header, uint64_t src, uint32_t bytes,
                    const AddressSpace* space) {
    ctx.compute(params_.send_call);
    const uint32_t entry = GRIM_ENTRY_BYTES(bytes);
    bus::PciBus& bus = nic_.bus();
    uint32_t skip = queue_need(bytes) - entry;  // bytes left unused at the queue's end: the entry is not split
    // Room by the NI's front as last seen; read it again (PIO) only when short. While
    // the queue is full, take arrivals: the NI frees an entry only once the peer's NI
    // has ACKed it, which it does only when it can deliver it, i.e. when the peer's
    // host is taking its own arrivals. Two hosts that both wait here for room without
    // polling leave both AM queues full, both NIs NACKing, both send queues full: the
    // 4 MB bidir stall (STATUS.md). Not inside a handler: poll() is not re-entrant
    // (the slot being handled would be handled again), so a handler's send waits as
    // before. A handler may send (poll() runs here), so the room is recomputed.
    while (!send_room(ctx, entry + skip))
        if (!dispatching_) {
            poll(ctx);
            skip = queue_need(bytes) - entry;
        }
    const uint32_t pos = back_ % sq_bytes_;
    if (skip) {
        const uint32_t mark = GRIM_WRAP_MARK;
        bus.store(ctx, nic_.pci_address(sq_offset_ + pos), std::span(reinterpret_cast<const uint8_t*>(&mark), 4));
        back_ += skip;
    }
    // The entry in 64-byte blocks: the header (network order) and the payload.
    const uint32_t at = sq_offset_ + back_ % sq_bytes_;
    alignas(8) std::array<uint8_t, 64> block{};
    for (uint32_t i = 0; i < 8; ++i) {
        const uint32_t w = be(header[i]);
        std::copy_n(reinterpret_cast<const uint8_t*>(&w), 4, block.data() + 4 * i);
    }
    uint32_t done = 0;  // payload bytes placed
    auto tell_back = [&](uint32_t back) {
        bus.store(ctx, nic_.pci_address(lc_field(offsetof(grim_lc, sq_back)) - LANAI_SRAM_UNCACHED_BASE),
                  std::span(reinterpret_cast<const uint8_t*>(&back), 4));
    };
    const uint32_t segment = segment_bytes();
    for (uint32_t off = 0; off < entry; off += 64) {
        const uint32_t first = off == 0 ? GRIM_HEADER_BYTES : 0;
        const uint32_t n = std::min<uint32_t>(64 - first, bytes - done);
        if (off) block.fill(0);
        if (n && space)
            space->read(memory_, uint32_t(src + done), std::span(block.data() + first, n));
        else if (n)
            memory_.read(src + done, std::span(block.data() + first, n));
        done += n;
        bus.store(ctx, nic_.pci_address(at + off), block);
        // Cut-through: after each segment, how much of the entry is in (grim_fw.h).
        if (segment && (off + 64) % segment == 0 && off + 64 < entry) tell_back(back_ + off + 64);
    }
    back_ += entry;
    tell_back(back_);
}

uint32_t Endpoint::queue_need(uint32_t bytes) const {
    const uint32_t entry = GRIM_ENTRY_BYTES(bytes);
    const uint32_t pos = back_ % sq_bytes_;
    return entry + (pos + entry > sq_bytes_ ? sq_bytes_ - pos : 0);
}

// Room by the NI's front as last seen; read it again (PIO) only when short.
bool Endpoint::send_room(host::ProcessContext& ctx, uint32_t need) {
    if (sq_bytes_ - (back_ - front_seen_) >= need) return true;
    uint8_t w[4];
    nic_.bus().load(ctx, nic_.pci_address(lc_field(offsetof(grim_lc, sq_front)) - LANAI_SRAM_UNCACHED_BASE), w);
    front_seen_ = uint32_t(w[0]) | uint32_t(w[1]) << 8 | uint32_t(w[2]) << 16 | uint32_t(w[3]) << 24;
    return sq_bytes_ - (back_ - front_seen_) >= need;
}

void Endpoint::am_send(host::ProcessContext& ctx, uint32_t dst_node, uint32_t handler, const std::array<uint32_t, 4>& args, uint64_t src,
                       uint32_t bytes, uint32_t dst_lc) {
    if (bytes > GRIM_MTU) throw Error("grim_send: " + std::to_string(bytes) + " B is more than GRIM's MTU of " + std::to_string(GRIM_MTU) + " B");
    if (bytes > max_message_bytes())
        throw Error("grim_send: " + std::to_string(bytes) + " B is more than node " + std::to_string(node()) + " LC " + std::to_string(lc_) +
                    "'s send queue of " + std::to_string(sq_bytes_) + " B takes in one message (" + std::to_string(max_message_bytes()) +
                    " B with grim.lcs " + std::to_string(params_.lcs) + ")");
    if (dst_node >= nic_.network()->nodes()) throw Error("grim_send: no node " + std::to_string(dst_node));
    if (dst_lc >= params_.lcs) throw no_such_lc("grim_send: ", dst_node, dst_lc, params_.lcs);
    const uint32_t words = (bytes + 3) / 4;
    push(ctx,
         {GRIM_W0(0, 0), GRIM_W1(GRIM_T_AM, words * 4 - bytes, 0, GRIM_ENDPOINT(node(), lc_)), GRIM_W2(words, GRIM_ENDPOINT(dst_node, dst_lc)),
          GRIM_W3(lc_, handler), args[0], args[1], args[2], args[3]},
         src, bytes);
}

void Endpoint::rm_write_p(host::ProcessContext& ctx, uint32_t dst_node, uint64_t remote, uint64_t src, uint32_t bytes, uint64_t notify,
                          uint32_t notify_value, uint32_t user) {
    if (dst_node >= nic_.network()->nodes()) throw Error("rm_write_p: no node " + std::to_string(dst_node));
    if (remote + bytes > 0xFFFF'FFFFull || notify > 0xFFFF'FFFCull)
        throw Error("rm_write_p: PCI physical addresses are 32-bit (seed 004 L575)");
    if (bytes > max_message_bytes())
        return in_fragments(bytes, fragment_bytes(), [&](uint32_t off, uint32_t n, bool last) {
            rm_write_p(ctx, dst_node, remote + off, src + off, n, last ? notify : 0, last ? notify_value : 0, user);
        });
    const uint32_t words = (bytes + 3) / 4;
    push(ctx,
         {GRIM_W0(0, 0), GRIM_W1(GRIM_T_RM_P, words * 4 - bytes, 0, GRIM_ENDPOINT(node(), lc_)), GRIM_W2(words, GRIM_ENDPOINT(dst_node, 0)),
          GRIM_W3(lc_, 0), uint32_t(remote), uint32_t(notify), notify_value, user},
         src, bytes);
}

void Endpoint::check_node(const char* call, uint32_t dst_node) const {
    if (dst_node >= nic_.network()->nodes()) throw Error(std::string(call) + ": no node " + std::to_string(dst_node));
}

uint32_t Endpoint::malloc_pinned(uint32_t bytes) {
    AddressSpace::Block fresh;
    const uint32_t va = driver_->space.malloc_pinned(bytes, &fresh);
    if (fresh.bytes && driver_->static_entries < GRIM_XLATE_STATIC) {
        // The block's static entry: one run, the whole block (§4.5.2 L1177).
        nic::EmbeddedNic& e = nic_.nic();
        const uint32_t at = shared_ + offsetof(grim_shared, xlate) + offsetof(grim_xlate, entry) + driver_->static_entries++ * sizeof(grim_xlate_entry);
        e.poke32(at + offsetof(grim_xlate_entry, va), fresh.va);
        e.poke32(at + offsetof(grim_xlate_entry, bytes), fresh.bytes);
        e.poke32(at + offsetof(grim_xlate_entry, runs), 1);
        e.poke32(at + offsetof(grim_xlate_entry, run) + offsetof(grim_xlate_run, pa), fresh.pa);
        e.poke32(at + offsetof(grim_xlate_entry, run) + offsetof(grim_xlate_run, bytes), fresh.bytes);
        e.poke32(at + offsetof(grim_xlate_entry, valid), 1);
    }
    return va;
}

uint32_t Endpoint::pin_pages(uint32_t bytes) { return driver_->space.pin_pages(bytes); }

uint32_t Endpoint::word(uint32_t va) const {
    uint32_t v = 0;
    driver_->space.read(memory_, va, {reinterpret_cast<uint8_t*>(&v), 4});
    return v;
}

void Endpoint::rm_write_v(host::ProcessContext& ctx, uint32_t dst_node, uint32_t remote, uint32_t src, uint32_t bytes, uint32_t notify,
                          uint32_t notify_value, uint32_t user) {
    check_node("rm_write_v", dst_node);
    if (bytes && !driver_->space.registered(src, bytes))
        throw MemoryError("rm_write_v: the source " + hex_address(src) + " (" + std::to_string(bytes) + " B) is not registered memory of node " +
                              std::to_string(node()),
                          node(), src);
    if (bytes > max_message_bytes())
        return in_fragments(bytes, fragment_bytes(), [&](uint32_t off, uint32_t n, bool last) {
            rm_write_v(ctx, dst_node, remote + off, src + off, n, last ? notify : 0, last ? notify_value : 0, user);
        });
    const uint32_t words = (bytes + 3) / 4;
    push(ctx,
         {GRIM_W0(0, 0), GRIM_W1(GRIM_T_RM_V, words * 4 - bytes, 0, GRIM_ENDPOINT(node(), lc_)), GRIM_W2(words, GRIM_ENDPOINT(dst_node, 0)),
          GRIM_W3(lc_, 0), remote, notify, notify_value, user},
         src, bytes, &driver_->space);
}

void Endpoint::rm_read(host::ProcessContext& ctx, uint32_t dst_node, uint32_t remote, uint32_t local, uint32_t bytes, uint32_t lock) {
    check_node("rm_read", dst_node);
    auto local_check = [&](uint32_t va, uint32_t n, const char* what) {
        if (n && !driver_->space.registered(va, n))
            throw MemoryError(std::string("rm_read: the ") + what + " " + hex_address(va) + " is not registered memory of node " + std::to_string(node()),
                              node(), va);
    };
    local_check(local, bytes, "destination");
    if (lock) local_check(lock, 4, "lock word");
    // Each read's reply zeroes its lock (L1193): only the last read carries it.
    if (bytes > max_message_bytes())
        return in_fragments(bytes, fragment_bytes(), [&](uint32_t off, uint32_t n, bool last) {
            rm_read(ctx, dst_node, remote + off, local + off, n, last ? lock : 0);
        });
    push(ctx,
         {GRIM_W0(0, 0), GRIM_W1(GRIM_T_RM_RV, 0, 0, GRIM_ENDPOINT(node(), lc_)), GRIM_W2(0, GRIM_ENDPOINT(dst_node, 0)), GRIM_W3(lc_, 0),
          remote, local, bytes, lock},
         0, 0);
}

void Endpoint::retire() {
    if (driver_->translator) driver_->translator->detach();
}

// The NI DMAs a record when one of this endpoint's remote memory operations was
// refused; it is the library's to raise (a load of host memory: no PIO).
void Endpoint::check_errors() {
    grim_error_record r{};
    memory_.read(error_record_, {reinterpret_cast<uint8_t*>(&r), sizeof r});
    if (r.count == errors_seen_) return;
    errors_seen_ = r.count;
    if (r.type & GRIM_ERR_UNDELIVERABLE) {
        const uint32_t type = r.type & ~GRIM_ERR_UNDELIVERABLE;
        throw DeliveryError("node " + std::to_string(node()) + ": " + article(type) + " " + type_name(type) + " to node " + std::to_string(r.node) +
                                " was given up: node " + std::to_string(r.node) + "'s NI answered none of " +
                                std::to_string(params_.resend_limit) + " retransmissions (link errors or a dead node); it and the " +
                                "later unanswered messages to the same channel were dropped",
                            r.node, type);
    }
    if (r.type == GRIM_T_MC || r.type == GRIM_T_MC_UPDATE)
        throw MulticastError("node " + std::to_string(node()) + ": a " + type_name(r.type) + " injected here was refused by node " +
                                 std::to_string(r.node) + ", which is not its tree's root (a tree update crossed the injection)",
                             "multicast id");
    throw MemoryError("node " + std::to_string(node()) + ": " + type_name(r.type) + " refused: virtual address " + hex_address(r.va) +
                          " is not registered memory of node " + std::to_string(r.node) + " (nothing was written there)",
                      r.node, r.va);
}

uint32_t Endpoint::poll(host::ProcessContext& ctx) {
    ctx.compute(params_.poll);
    check_errors();
    uint32_t back = 0;
    memory_.read(back_word_, std::span(reinterpret_cast<uint8_t*>(&back), 4));
    uint32_t handled = 0;
    while (am_front_ != back) {
        const uint64_t slot = queue_base_ + uint64_t(am_front_ % params_.am_slots) * kSlotBytes;
        std::array<uint32_t, 8> h;
        memory_.read(slot, std::span(reinterpret_cast<uint8_t*>(h.data()), 32));
        for (auto& w : h) w = be(w);
        ActiveMessage m;
        m.src_node = GRIM_EP_NODE(GRIM_W1_SRC_EP(h[1]));
        m.handler = GRIM_W3_HANDLER(h[3]);
        m.args = {h[4], h[5], h[6], h[7]};
        m.payload_addr = slot + GRIM_HEADER_BYTES;
        m.bytes = GRIM_W2_WORDS(h[2]) * 4 - GRIM_W1_PCORR(h[1]);
        ctx.compute(params_.handler_call);
        const auto fn = handlers_.find(m.handler);
        if (fn == handlers_.end())
            throw Error("node " + std::to_string(node()) + ": active message from node " + std::to_string(m.src_node) + " names handler " +
                        std::to_string(m.handler) + ", which is not registered");
        struct Dispatching {  // push() must not poll from inside a handler
            bool& flag;
            bool was;
            explicit Dispatching(bool& f) : flag(f), was(f) { flag = true; }
            ~Dispatching() { flag = was; }
        } dispatching(dispatching_);
        fn->second(ctx, m);
        ++am_front_;
        ++handled;
        // Give the slot back to the NI (one posted PIO store).
        const uint32_t front = am_front_;
        nic_.bus().store(ctx, nic_.pci_address(lc_field(offsetof(grim_lc, rq_front)) - LANAI_SRAM_UNCACHED_BASE),
                         std::span(reinterpret_cast<const uint8_t*>(&front), 4));
    }
    return handled;
}

void Endpoint::wait(host::ProcessContext& ctx, const std::function<bool()>& done) {
    for (;;) {
        poll(ctx);
        if (done()) return;
        uint32_t back = 0;
        memory_.read(back_word_, std::span(reinterpret_cast<uint8_t*>(&back), 4));
        if (back != am_front_) continue;
        // Spinning on host memory costs the CPU but changes nothing until a DMA from
        // the NI lands: skip ahead to it.
        ctx.wait(driver_->arrived);
    }
}

static_assert(sizeof(grim_counters) == 29 * sizeof(uint32_t), "counter_names() lists every field of grim_counters in order");

const std::vector<std::string>& Endpoint::counter_names() {
    static const std::vector<std::string> names = {"sent", "retransmits", "received", "out_of_order", "acks_sent", "acks_received",
                                                   "nacks_sent", "nacks_received", "control_queued", "am_delivered", "rm_delivered",
                                                   "bad_messages", "xlate_hits", "xlate_misses", "xlate_errors", "remote_errors",
                                                   "rm_reads_served", "rm_read_replies", "mc_delivered", "mc_forwarded",
                                                   "mc_copied_bytes", "mc_ticket_refused", "mc_refused_full", "mc_updates",
                                                   "mc_misrouted", "crc_drops", "timeouts", "duplicates", "undeliverable"};
    return names;
}

uint32_t Endpoint::resent() const { return nic_.nic().peek32(lc_field(offsetof(grim_lc, resent))); }

uint32_t Endpoint::counter(const char* name) const {
    const auto& n = counter_names();
    const auto it = std::find(n.begin(), n.end(), name);
    if (it == n.end()) throw Error(std::string("GRIM has no counter '") + name + "'");
    return nic_.nic().peek32(shared_ + offsetof(grim_shared, counters) + 4 * uint32_t(it - n.begin()));
}

}  // namespace niclab::grim
