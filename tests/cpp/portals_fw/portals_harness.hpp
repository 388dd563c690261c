#pragma once
// A protocol-level harness for the C Portals firmware (firmware/portals/): it plays
// the host side of niclab/fw/portals_fw.h for one node - upper pendings and the
// generic event queue in host memory behind host window 0, mailbox commands posted
// with programmed I/O from a host::Process, the NIC's host interrupt draining the EQ
// - without any Portals library above it. NodeScript runs a node's traffic: sends
// (headers written into upper pendings, TX commands streamed), receives (each
// NEW_MSG answered with an RX command, or SEG + RX), releases.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <deque>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "niclab/systems/seastar/seastar.hpp"
#include "niclab/fw/hw.h"
#include "niclab/fw/mailbox.h"
#include "niclab/fw/portals_fw.h"
#include "niclab/host/condition.hpp"
#include "niclab/host/process.hpp"
#include "niclab/nic/mailbox_producer.hpp"
#include "niclab/system/system.hpp"
#include "test_support.hpp"

namespace niclab::test::ptl {

using niclab::test::pattern;

inline std::string image(const std::string& name) {
    return std::string(NICLAB_FIRMWARE_DIR) + "/portals/" + name + ".elf";
}

inline system::SystemSpec spec(uint32_t nodes, const std::string& fw = "portals",
                               nlohmann::json topology = nullptr, uint64_t seed = 0) {
    system::SystemSpec s;
    s.nodes = nodes;
    s.topology = std::move(topology);
    s.seed = seed;
    s.firmware = {image(fw)};
    return s;
}

// Word indices of struct ptl_niccb.
enum NiccbWord : uint32_t {
    kMagic, kVersion, kFeatures, kTxPendings, kRxPendings, kSources, kSegments, kPendingBytes, kSourceBytes,
    kSramStructs, kTxMessages, kRxMessages, kHostInterrupts, kEvents, kRxInUse, kRxInUseMax, kSourcesInUse,
    kSourcesInUseMax, kTxFifoYields, kCtrlPendings, kRxDrops, kNacksSent, kNacksReceived, kAcksSent, kAcksReceived,
    kRetransmits, kAccelMatches, kAccelDrops, kAccelExamined, kAccelEvents, kAccelMes, kAccelMds, kTxSourceWaits,
    kTxSkips, kSkipsReceived,
};
static_assert(kSkipsReceived * 4 == offsetof(ptl_niccb, skips_received));

struct Event {
    uint32_t type = 0, id = 0, word2 = 0, word3 = 0;
    Time when{};
};

struct Seg {
    uint64_t addr;
    uint32_t length;
};

// One node's host side of the generic-mode interface.
class PortalsHost {
public:
    static constexpr uint64_t kUpperBase = 0x70000000;  // upper pendings, then the EQ, behind window 0 (away from test buffers)
    static constexpr uint32_t kWindowBytes = 0x80000;

    PortalsHost(system::System& sys, size_t node)
        : sys_(sys), node_(node), nic_(sys.nic(node)), commands_(nic_, portals_mailbox(nic_)), mailbox_(commands_.address()) {
        if (!nic_.image()->find_symbol(PTL_NICCB_SYMBOL, niccb_))
            throw std::runtime_error("not a Portals firmware: no niccb symbol");
        if (niccb(kMagic) != PTL_NICCB_MAGIC) throw std::runtime_error("niccb magic not set");
        tx_pendings_ = niccb(kTxPendings);
        rx_pendings_ = niccb(kRxPendings);
        eq_entries_ = 1;
        while (eq_entries_ <= tx_pendings_ + rx_pendings_) eq_entries_ *= 2;
        // After the RX pool's upper pendings, go-back-N's control pendings' (the firmware's own).
        eq_addr_ = kUpperBase + uint64_t(tx_pendings_ + rx_pendings_ + niccb(kCtrlPendings)) * PTL_UPPER_BYTES;
        if (eq_addr_ + uint64_t(eq_entries_) * PTL_EQ_BYTES - kUpperBase > kWindowBytes)
            throw std::runtime_error("host structures larger than the window");
        res_head_ = peek(mailbox_ + NICLAB_MAILBOX_RES_HEAD);
        seastar::seastar_nic(sys, node).host_bridge().open_window(0, kUpperBase, kWindowBytes, true);
        irq_handler_ = nic_.control().add_host_interrupt_handler([this] {
            sys_.host_cpu(node_).raise_interrupt([this](host::InterruptContext& ictx) { on_interrupt(ictx); });
        });
    }
    ~PortalsHost() { nic_.control().remove_host_interrupt_handler(irq_handler_); }
    PortalsHost(const PortalsHost&) = delete;
    PortalsHost& operator=(const PortalsHost&) = delete;

    nic::EmbeddedNic& nic() { return nic_; }
    uint32_t node() const { return uint32_t(node_); }
    uint32_t tx_pendings() const { return tx_pendings_; }
    uint32_t rx_pendings() const { return rx_pendings_; }
    uint32_t niccb(uint32_t word) const { return peek(niccb_ + 4 * word); }
    uint64_t interrupts_taken() const { return interrupts_; }
    uint64_t upper(uint32_t id) const { return kUpperBase + uint64_t(id) * PTL_UPPER_BYTES; }

    void write_header(uint32_t id, const ptl_hdr& h) {
        sys_.host_memory(node_).write(upper(id), {reinterpret_cast<const uint8_t*>(&h), sizeof h});
    }
    ptl_hdr read_header(uint32_t id) const {
        ptl_hdr h;
        sys_.host_memory(node_).read(upper(id), {reinterpret_cast<uint8_t*>(&h), sizeof h});
        return h;
    }

    // PTL_CMD_INIT; returns the status. entries = 0: the smallest legal EQ.
    uint32_t init(host::ProcessContext& ctx, uint32_t entries = 0) {
        if (entries == 0) entries = eq_entries_;
        sys_.host_memory(node_).fill(eq_addr_, 0, uint64_t(eq_entries_) * PTL_EQ_BYTES);
        init_done_ = false;
        // The EQ is live from the moment the firmware takes the command: the same
        // interrupt may carry INIT's result and the first events.
        uint32_t old_mask = eq_mask_, old_head = eq_head_;
        eq_mask_ = entries - 1;
        eq_head_ = 0;
        post(ctx, {PTL_CMD_INIT, uint32_t(kUpperBase), uint32_t(kUpperBase >> 32),
                   NICLAB_HOST_WINDOW_ADDR(0u) + 0u, uint32_t(eq_addr_ - kUpperBase), entries, 0, 0});
        ctx.wait_for(cond_, [this] { return init_done_; });
        if (init_status_ != PTL_INIT_OK) eq_mask_ = old_mask, eq_head_ = old_head;
        return init_status_;
    }
    void tx(host::ProcessContext& ctx, uint32_t id, uint32_t dst, uint64_t addr, uint32_t length, uint32_t flags = 0) {
        post(ctx, {PTL_CMD_TX, id, dst, uint32_t(addr), uint32_t(addr >> 32), length, flags, 0});
    }
    void rx(host::ProcessContext& ctx, uint32_t id, uint64_t addr, uint32_t length, uint32_t flags = 0) {
        post(ctx, {PTL_CMD_RX, id, uint32_t(addr), uint32_t(addr >> 32), length, flags, 0, 0});
    }
    void seg(host::ProcessContext& ctx, uint32_t id, uint64_t addr, uint32_t length) {
        post(ctx, {PTL_CMD_SEG, id, uint32_t(addr), uint32_t(addr >> 32), length, 0, 0, 0});
    }
    void release(host::ProcessContext& ctx, uint32_t id) { post(ctx, {PTL_CMD_RELEASE, id, 0, 0, 0, 0, 0, 0}); }

    // The next event, in EQ order; blocks until there is one.
    Event next_event(host::ProcessContext& ctx) {
        ctx.wait_for(cond_, [this] { return !events_.empty(); });
        Event e = events_.front();
        events_.pop_front();
        return e;
    }
    bool has_event() const { return !events_.empty(); }

    void post(host::ProcessContext& ctx, const std::array<uint32_t, 8>& words) {
        const auto pio = seastar::params(sys_).bus;
        while (commands_.looks_full()) {  // refresh the cached head (§5.3 on the host side)
            ctx.compute(pio.pio_read);
            if (!commands_.refresh_head()) ctx.sleep_for(Time::us(1));
        }
        ctx.compute(pio.pio_write * 3);
        commands_.push(words);
    }

private:
    static uint32_t portals_mailbox(const nic::EmbeddedNic& nic) {
        uint32_t mailbox = 0;
        if (!nic.image()->find_symbol(NICLAB_MAILBOX_SYMBOL, mailbox))
            throw std::runtime_error("not a Portals firmware: no mailbox symbol");
        return mailbox;
    }

    uint32_t peek(uint32_t a) const { return nic_.peek32(a); }

    void on_interrupt(host::InterruptContext& ictx) {
        ++interrupts_;
        const auto pio = seastar::params(sys_).bus;
        ictx.charge(pio.pio_read);
        uint32_t tail = peek(mailbox_ + NICLAB_MAILBOX_RES_TAIL);
        while (res_head_ != tail) {  // only PTL_CMD_INIT answers here
            uint32_t slot = mailbox_ + NICLAB_MAILBOX_RES + res_head_ * NICLAB_MAILBOX_WORDS * 4;
            EXPECT_EQ(peek(slot), PTL_RES_INIT);
            init_status_ = peek(slot + 4 * PTL_RES_STATUS);
            init_done_ = true;
            res_head_ = (res_head_ + 1) % NICLAB_MAILBOX_ENTRIES;
            nic_.poke32(mailbox_ + NICLAB_MAILBOX_RES_HEAD, res_head_);
        }
        // Every new event (word 0 non-zero), then clear word 0 (portals_fw.h).
        auto& mem = sys_.host_memory(node_);
        for (;;) {
            uint64_t a = eq_addr_ + uint64_t(eq_head_) * PTL_EQ_BYTES;
            uint32_t w[4];
            mem.read(a, {reinterpret_cast<uint8_t*>(w), sizeof w});
            if (w[0] == 0) break;
            ictx.charge(Time::ns(100));
            events_.push_back({w[0], w[1], w[2], w[3], ictx.now()});
            uint32_t zero = 0;
            mem.write(a, {reinterpret_cast<const uint8_t*>(&zero), 4});
            eq_head_ = (eq_head_ + 1) & eq_mask_;
        }
        cond_.notify_all();
    }

    system::System& sys_;
    size_t node_;
    nic::EmbeddedNic& nic_;
    nic::MailboxProducer commands_;
    uint32_t mailbox_ = 0, niccb_ = 0;
    nic::ControlBlock::HandlerId irq_handler_ = 0;
    uint32_t tx_pendings_ = 0, rx_pendings_ = 0, eq_entries_ = 0, eq_mask_ = 0, eq_head_ = 0;
    uint64_t eq_addr_ = 0;
    uint32_t res_head_ = 0;
    bool init_done_ = false;
    uint32_t init_status_ = 0;
    std::deque<Event> events_;
    host::Condition cond_;
    uint64_t interrupts_ = 0;
};

// ---- A node's traffic ----

struct Outgoing {
    uint32_t dst = 0;
    uint32_t tag = 0;                 // travels in the header's match_bits_lo
    uint64_t addr = 0;                // contiguous payload ...
    uint32_t length = 0;
    std::vector<Seg> segs;            // ... or these regions (PTL_TX_SEGS)
    std::vector<uint8_t> inline_data; // header-only message with its payload in the header
};

struct Incoming {
    uint32_t id = 0, src = 0, msg_bytes = 0;
    ptl_hdr hdr{};
    bool complete_at_header = false;  // NEW_MSG_COMPLETE (VSMALL)
    uint32_t status = 0, bytes = 0;   // RX_DONE
    Time announced{}, done{};
};

struct Placement {
    uint64_t addr = 0;
    uint32_t length = 0;
    std::vector<Seg> segs;            // non-empty: SEG commands + PTL_RX_SEGS
};

struct NodeScript {
    std::vector<Outgoing> sends;
    uint32_t expect_rx = 0;           // messages to receive before finishing
    std::function<Placement(const Incoming&)> place;  // default: discard (length 0)
    bool release = true;              // answer RX_DONE / NEW_MSG_COMPLETE with RELEASE
    Time start_delay{};
    Time gap{};                       // pause after each send

    // Results.
    std::vector<Event> tx_done;       // in completion order
    std::vector<Incoming> received;   // in completion order
    std::vector<uint32_t> event_types;
    bool finished = false;
};

// The body of a node's host process: init, stream the sends (TX ids from the host
// pool, reused after TX_DONE), answer every event, until all sends completed and
// expect_rx messages were received.
inline void run_script(host::ProcessContext& ctx, PortalsHost& h, NodeScript& s) {
    if (s.start_delay > Time{}) ctx.sleep_for(s.start_delay);
    ASSERT_EQ(h.init(ctx), PTL_INIT_OK);
    std::vector<uint32_t> free_tx;
    for (uint32_t i = h.tx_pendings(); i-- > 0;) free_tx.push_back(i);
    std::map<uint32_t, Incoming> announced;
    size_t next_send = 0, tx_completed = 0;
    auto handle = [&](const Event& e) {
        s.event_types.push_back(e.type);
        switch (e.type) {
            case PTL_EV_TX_DONE:
                s.tx_done.push_back(e);
                free_tx.push_back(e.id);
                ++tx_completed;
                break;
            case PTL_EV_NEW_MSG:
            case PTL_EV_NEW_MSG_COMPLETE: {
                Incoming in;
                in.id = e.id;
                in.msg_bytes = e.word2;
                in.src = e.word3;
                in.hdr = h.read_header(e.id);
                in.announced = e.when;
                if (e.type == PTL_EV_NEW_MSG_COMPLETE) {
                    in.complete_at_header = true;
                    in.done = e.when;
                    s.received.push_back(in);
                    if (s.release) h.release(ctx, e.id);
                    break;
                }
                Placement p = s.place ? s.place(in) : Placement{};
                if (!p.segs.empty()) {
                    for (const Seg& g : p.segs) h.seg(ctx, e.id, g.addr, g.length);
                    h.rx(ctx, e.id, 0, 0, PTL_RX_SEGS);
                } else {
                    h.rx(ctx, e.id, p.addr, p.length);
                }
                announced[e.id] = in;
                break;
            }
            case PTL_EV_RX_DONE: {
                auto it = announced.find(e.id);
                ASSERT_NE(it, announced.end()) << "RX_DONE for pending " << e.id << " without NEW_MSG";
                Incoming in = it->second;
                announced.erase(it);
                in.status = e.word2;
                in.bytes = e.word3;
                in.done = e.when;
                s.received.push_back(in);
                if (s.release) h.release(ctx, e.id);
                break;
            }
            default: ADD_FAILURE() << "unknown event type " << e.type;
        }
    };
    auto busy = [&] {
        return next_send < s.sends.size() || tx_completed < s.sends.size() || s.received.size() < s.expect_rx;
    };
    while (busy()) {
        while (h.has_event()) handle(h.next_event(ctx));
        if (!busy()) break;
        if (next_send < s.sends.size() && !free_tx.empty()) {
            const Outgoing& o = s.sends[next_send++];
            uint32_t id = free_tx.back();
            free_tx.pop_back();
            ptl_hdr hdr{};
            hdr.type = PTL_MSG_PUT;
            hdr.src_nid = h.node();
            hdr.dst_pid = 7;
            hdr.match_bits_lo = o.tag;
            hdr.length = o.length;
            if (!o.inline_data.empty()) {
                hdr.flags = PTL_HDR_INLINE;
                hdr.length = uint32_t(o.inline_data.size());
                std::memcpy(hdr.inline_data, o.inline_data.data(), o.inline_data.size());
            }
            h.write_header(id, hdr);
            if (!o.segs.empty()) {
                for (const Seg& g : o.segs) h.seg(ctx, id, g.addr, g.length);
                h.tx(ctx, id, o.dst, 0, 0, PTL_TX_SEGS);
            } else {
                h.tx(ctx, id, o.dst, o.addr, o.inline_data.empty() ? o.length : 0);
            }
            if (s.gap > Time{}) ctx.sleep_for(s.gap);
            continue;
        }
        handle(h.next_event(ctx));
    }
    s.finished = true;
}

// Runs one script per node (nodes without a script stay idle) to the end.
struct Run {
    std::vector<std::unique_ptr<PortalsHost>> hosts;
    system::System::RunResult result;
};

// The faults that stopped NICs, for failure messages.
inline std::string faults(system::System& sys) {
    std::string s;
    for (size_t n = 0; n < sys.node_count(); ++n)
        if (auto f = sys.nic(n).fault()) s += "node " + std::to_string(n) + ": " + f->what() + "\n";
    return s;
}

inline Run run(system::System& sys, std::map<uint32_t, NodeScript*> scripts) {
    Run r;
    std::vector<std::unique_ptr<host::Process>> procs;
    for (auto& [node, script] : scripts) {
        r.hosts.push_back(std::make_unique<PortalsHost>(sys, node));
        PortalsHost* h = r.hosts.back().get();
        NodeScript* s = script;
        procs.push_back(std::make_unique<host::Process>(sys.host_cpu(node), "portals",
                                                        [h, s](host::ProcessContext& ctx) { run_script(ctx, *h, *s); }));
    }
    r.result = sys.run_until(Time::max());
    for (auto& p : procs) p->rethrow_if_failed();
    if (!r.result.faulted_nodes.empty()) std::cerr << "[ portals ] " << faults(sys);
    for (auto& [node, script] : scripts)
        if (!script->finished)
            std::cerr << "[ portals ] node " << node << " unfinished at " << sys.now().as_us() << " us: " << script->sends.size()
                      << " sends, " << script->tx_done.size() << " TX_DONE, " << script->received.size() << " of "
                      << script->expect_rx << " received, " << script->event_types.size() << " events\n";
    return r;
}

// Fill `length` bytes at `addr` with pattern(seed) and return them.
inline std::vector<uint8_t> put_pattern(system::System& sys, size_t node, uint64_t addr, uint32_t length,
                                        uint32_t seed) {
    auto bytes = pattern(length, seed);
    sys.host_memory(node).write(addr, bytes);
    return bytes;
}

inline std::vector<uint8_t> read(system::System& sys, size_t node, uint64_t addr, uint64_t length) {
    std::vector<uint8_t> v(length);
    sys.host_memory(node).read(addr, v);
    return v;
}

}  // namespace niclab::test::ptl
