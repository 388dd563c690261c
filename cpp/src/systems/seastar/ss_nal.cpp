#include "niclab/systems/seastar/ss_nal.hpp"

#include <algorithm>
#include <cstring>

#include "niclab/fw/hw.h"
#include "niclab/fw/mailbox.h"
#include "niclab/systems/seastar/portals_wire.hpp"

namespace niclab::seastar {

using namespace portals;  // the library's types: this file is the SeaStar's side of it

namespace {

uint32_t lo(uint64_t v) { return uint32_t(v); }
uint32_t hi(uint64_t v) { return uint32_t(v >> 32); }

uint32_t next_power_of_two_above(uint32_t n) {
    uint32_t p = 1;
    while (p <= n) p <<= 1;
    return p;
}

std::string node_name(const nic::EmbeddedNic& nic) { return "node " + std::to_string(nic.node_id()); }

}  // namespace

SsNal::SsNal(SeaStar& seastar, host::HostCpu& cpu, host::HostMemory& memory, HostPortalsCosts costs, uint32_t nodes)
    : seastar_(seastar), nic_(seastar.nic()), cpu_(cpu), memory_(memory), bus_(seastar.bus()), costs_(costs),
      nodes_(nodes) {
    const nic::EmbeddedNic& nic = nic_;
    const fw::FirmwareImage* image = nic.image();
    if (!image || !image->find_symbol(PTL_NICCB_SYMBOL, niccb_addr_) ||
        !image->find_symbol(NICLAB_MAILBOX_SYMBOL, mailbox_))
        throw Error(node_name(nic) + ": the loaded firmware is not the Portals firmware (no symbols " +
                    PTL_NICCB_SYMBOL + " and " + NICLAB_MAILBOX_SYMBOL + ")");
    const ptl_niccb& cb = niccb();
    if (cb.magic != PTL_NICCB_MAGIC || cb.version != PTL_FW_VERSION)
        throw Error(node_name(nic) + ": Portals firmware control block not initialised or of another version");
    features_ = cb.features;
    n_tx_ = cb.tx_pendings;
    n_rx_ = cb.rx_pendings;

    // The kernel region: upper pendings in id order (after the RX pool, go-back-N's
    // control pendings: the firmware writes their headers, the host never looks), then
    // the generic EQ, which only the TX and RX pendings post to.
    const uint32_t pendings = n_tx_ + n_rx_;
    const uint32_t uppers = pendings + cb.ctrl_pendings;
    eq_entries_ = next_power_of_two_above(pendings);
    upper_base_ = kKernelRegionBase;
    eq_base_ = upper_base_ + ((uint64_t(uppers) * PTL_UPPER_BYTES + 4095) & ~uint64_t(4095));
    const uint64_t region = eq_base_ + uint64_t(eq_entries_) * PTL_EQ_BYTES - upper_base_;
    memory_.fill(upper_base_, 0, region);
    seastar.host_bridge().open_window(0, upper_base_, uint32_t(region), true);

    commands_.emplace(nic_, mailbox_);
    in_flight_ = PendingTable<InFlight>(n_tx_, n_rx_);
    for (uint32_t id = n_tx_; id-- > 0;) tx_free_.push_back(id);  // pop_back hands out 0 first
    irq_handler_ = nic_.control().add_host_interrupt_handler([this] {
        cpu_.raise_interrupt([this](host::InterruptContext& ictx) { on_interrupt(ictx); });
    });

    const uint32_t window = NICLAB_HOST_WINDOW_ADDR(0u);
    Words init{};
    init[PTL_CMD_OP] = PTL_CMD_INIT;
    init[PTL_INIT_UPPER_PHYS_LO] = lo(upper_base_);
    init[PTL_INIT_UPPER_PHYS_HI] = hi(upper_base_);
    init[PTL_INIT_UPPER_WINDOW] = window;
    init[PTL_INIT_EQ_WINDOW] = window + uint32_t(eq_base_ - upper_base_);
    init[PTL_INIT_EQ_ENTRIES] = eq_entries_;
    post(init, cpu_.now());
}

SsNal::~SsNal() { retire(); }

void SsNal::accel_init(uint32_t pid, uint64_t upper_base, uint32_t region_bytes, uint32_t eq_offset,
                       uint32_t eq_entries) {
    check_live();
    // Host window 1: the accelerated process's own structures, nothing else (the
    // firmware reaches only what its driver opened for it).
    seastar_.host_bridge().open_window(kAccelWindow, upper_base, region_bytes, true);
    const uint32_t window = NICLAB_HOST_WINDOW_ADDR(kAccelWindow);
    Words init{};
    init[PTL_CMD_OP] = PTL_CMD_ACCEL_INIT;
    init[PTL_INIT_UPPER_PHYS_LO] = lo(upper_base);
    init[PTL_INIT_UPPER_PHYS_HI] = hi(upper_base);
    init[PTL_INIT_UPPER_WINDOW] = window;
    init[PTL_INIT_EQ_WINDOW] = window + eq_offset;
    init[PTL_INIT_EQ_ENTRIES] = eq_entries;
    init[PTL_ACCEL_INIT_PID] = pid;
    init[PTL_ACCEL_INIT_UID] = 0;
    post(init, cpu_.now());
}

void SsNal::retire() {
    if (retired_) return;
    retired_ = true;
    nic_.control().remove_host_interrupt_handler(irq_handler_);
}

void SsNal::check_live() const {
    if (retired_)
        throw Error(node_name(nic_) + ": this Portals interface belongs to firmware that was reloaded or a system that is gone");
}

const ptl_niccb& SsNal::niccb() {
    nic_.read_sram(niccb_addr_, {reinterpret_cast<uint8_t*>(&niccb_), sizeof niccb_});
    return niccb_;
}

void SsNal::check_target(ptl_nid_t nid, const char* call) const {
    if (nodes_ && nid >= nodes_)
        throw PortalsError(PTL_PROCESS_INVALID, std::string(call) + ": target nid " + std::to_string(nid) +
                                                    " does not exist (the system has " + std::to_string(nodes_) +
                                                    " nodes)");
}

void SsNal::attach(Library& lib) {
    auto [it, fresh] = libraries_.emplace(lib.id().pid, &lib);
    if (!fresh) throw PortalsError(PTL_PROCESS_INVALID, "pid " + std::to_string(lib.id().pid) + " already has a network interface on " + node_name(nic_));
}

void SsNal::detach(Library& lib) {
    auto it = libraries_.find(lib.id().pid);
    if (it != libraries_.end() && it->second == &lib) libraries_.erase(it);
}

Library* SsNal::library_for(uint16_t pid) const {
    auto it = libraries_.find(pid);
    return it == libraries_.end() ? nullptr : it->second;
}

// ---------------------------------------------------------------- mailbox

// Each command: the eight words (write-combined), the tail, the doorbell. Without the
// write-through copies of the FIFO indices (seed 000 §5.3) the driver also reads the
// firmware's head and its own tail back across HyperTransport every time. The costs are
// charged ahead in one sum (with the link idle: on its own channels a host's PIO waits
// only for its own earlier PIO, which the CPU has serialized already).
Time SsNal::post_cost() const {
    const bus::HyperTransportParams& p = bus_.params();
    return p.pio_write * 3 + (has(PTL_FW_FEAT_WRITE_THROUGH) ? Time{} : p.pio_read * 2);
}

void SsNal::post(const Words& w, Time at) {
    ++counters_.commands;
    // The stores were issued by `at`; the command reaches the NIC when the bus completes them.
    outbox_.push_back({bus_.pio_write(at), w});
    flush_commands();
}

void SsNal::schedule_flush(Time at) {
    if (flush_scheduled_) return;
    flush_scheduled_ = true;
    cpu_.kernel().schedule_at(std::max(at, cpu_.now()), [this] {
        flush_scheduled_ = false;
        flush_commands();
    });
}

void SsNal::flush_commands() {
    if (retired_) return;
    while (!outbox_.empty()) {
        const Command& c = outbox_.front();
        if (c.at > cpu_.now()) return schedule_flush(c.at);
        if (commands_->looks_full() && !commands_->refresh_head())
            return schedule_flush(cpu_.now() + Time::us(1));  // full: the firmware will drain it
        commands_->push(c.words);
        outbox_.pop_front();
    }
}

void SsNal::post_regions(uint32_t pending, const Regions& regions, Time at) {
    if (regions.size() > PTL_MAX_SEGS)
        throw PortalsError(PTL_MD_ILLEGAL, "a message of " + std::to_string(regions.size()) +
                                               " regions; the firmware takes at most " + std::to_string(PTL_MAX_SEGS));
    for (const Region& r : regions) {
        Words seg{};
        seg[PTL_CMD_OP] = PTL_CMD_SEG;
        seg[PTL_SEG_PENDING] = pending;
        seg[PTL_SEG_ADDR_LO] = lo(r.addr);
        seg[PTL_SEG_ADDR_HI] = hi(r.addr);
        seg[PTL_SEG_LENGTH] = uint32_t(r.length);
        post(seg, at);
    }
}

// ---------------------------------------------------------------- transmit

Time SsNal::transmit_cost(const Send& s) const {
    // Write the header into the upper pending (cached host memory), then the commands.
    return cpu_.config().copy_time(PTL_HDR_BYTES) + post_cost() * commands_for(s.payload.size());
}

void SsNal::transmit(host::ProcessContext& ctx, Send s) {
    check_live();
    if (tx_free_.empty()) ++counters_.tx_pool_waits;
    ctx.wait_for(tx_pool_, [this] { return !tx_free_.empty(); });
    uint32_t pending = tx_free_.back();
    tx_free_.pop_back();
    ctx.compute(transmit_cost(s));
    start_transmit(pending, s, ctx.now());
}

void SsNal::transmit_from_interrupt(host::InterruptContext& ictx, Send s) {
    if (tx_free_.empty()) {
        ++counters_.tx_pool_waits;
        backlog_.push_back(std::move(s));
        return;
    }
    uint32_t pending = tx_free_.back();
    tx_free_.pop_back();
    ictx.charge(transmit_cost(s));
    start_transmit(pending, s, stamp(ictx));
}

void SsNal::start_transmit(uint32_t pending, Send& s, Time at) {
    ++counters_.transmits;
    // Very small messages travel in the header packet (seed 000 §5.2).
    if (has(PTL_FW_FEAT_VSMALL) && pack_inline(s, memory_)) ++counters_.inline_sends;
    memory_.write(upper_addr(pending), {reinterpret_cast<const uint8_t*>(&s.hdr), sizeof s.hdr});
    in_flight_[pending] = {library_for(s.hdr.src_pid), s.op};

    Words tx = tx_words(pending, s);
    if (s.payload.size() > 1) {
        post_regions(pending, s.payload, at);
        tx[PTL_TX_FLAGS] = PTL_TX_SEGS;
    }
    post(tx, at);
}

// ---------------------------------------------------------------- interrupts

void SsNal::check_init_result(host::InterruptContext& ictx) {
    ictx.charge(bus_.pio_read(stamp(ictx)));
    uint32_t res_head = nic_.peek32(mailbox_ + NICLAB_MAILBOX_RES_HEAD);
    if (res_head == nic_.peek32(mailbox_ + NICLAB_MAILBOX_RES_TAIL)) return;
    uint32_t slot = mailbox_ + NICLAB_MAILBOX_RES + res_head * NICLAB_MAILBOX_WORDS * 4;
    uint32_t status = nic_.peek32(slot + 4 * PTL_RES_STATUS);
    nic_.poke32(mailbox_ + NICLAB_MAILBOX_RES_HEAD, (res_head + 1) % NICLAB_MAILBOX_ENTRIES);
    init_pending_ = false;
    if (status != PTL_INIT_OK)
        throw Error(node_name(nic_) + ": the Portals firmware rejected PTL_CMD_INIT (status " + std::to_string(status) + ")");
}

void SsNal::on_interrupt(host::InterruptContext& ictx) {
    ++counters_.interrupts;
    if (init_pending_) check_init_result(ictx);
    // Process every new event (seed 000 §4.1): a slot holds one while its word 0 is set.
    uint32_t ev[4];
    while (take_event(memory_, eq_base_, eq_entries_, eq_head_, ev)) {
        ++counters_.events;
        ictx.charge(costs_.event);
        handle_event(ictx, ev);
    }
}

void SsNal::handle_event(host::InterruptContext& ictx, const uint32_t (&ev)[4]) {
    const uint32_t pending = ev[PTL_EV_PENDING];
    if (pending >= in_flight_.size())
        throw Error(node_name(nic_) + ": firmware event names pending " + std::to_string(pending) + " outside the pool");
    switch (ev[PTL_EV_TYPE]) {
        case PTL_EV_NEW_MSG: return new_message(ictx, pending, ev[PTL_EV_WORD3], false);
        case PTL_EV_NEW_MSG_COMPLETE: return new_message(ictx, pending, ev[PTL_EV_WORD3], true);
        case PTL_EV_RX_DONE: {
            InFlight f = std::exchange(in_flight_[pending], {});
            if (f.op) finish_receive(ictx, f.lib, f.op, ev[PTL_EV_WORD2] == NICLAB_DMA_OK);
            return release(ictx, pending);
        }
        case PTL_EV_TX_DONE: {
            InFlight f = std::exchange(in_flight_[pending], {});
            if (f.lib) {
                ictx.charge(costs_.portals_event);
                f.lib->send_done(f.op, ev[PTL_EV_WORD2] == NICLAB_DMA_OK, stamp(ictx));
            }
            tx_free_.push_back(pending);
            tx_pool_.notify_all();
            if (!backlog_.empty()) {
                Send s = std::move(backlog_.front());
                backlog_.pop_front();
                transmit_from_interrupt(ictx, std::move(s));
            }
            return;
        }
    }
    throw Error(node_name(nic_) + ": unknown firmware event type " + std::to_string(ev[PTL_EV_TYPE]));
}

void SsNal::new_message(host::InterruptContext& ictx, uint32_t pending, uint32_t src, bool complete) {
    ptl_hdr hdr;
    memory_.read(upper_addr(pending), {reinterpret_cast<uint8_t*>(&hdr), sizeof hdr});
    Library* lib = library_for(hdr.dst_pid);
    Receive r;
    if (lib) {
        ictx.charge(costs_.portals_event);
        r = lib->parse(hdr, src, stamp(ictx));
        ictx.charge(costs_.match_entry * r.entries_examined);
    }
    if (r.reply) transmit_from_interrupt(ictx, std::move(*r.reply));
    const bool deposit = r.action == Receive::Action::deposit;
    if (complete) {
        // Header only: a very small payload came inline; copy it to its place now.
        if (deposit) {
            ictx.copy(unpack_inline(hdr, r, memory_));
            finish_receive(ictx, lib, r.op, true);
        }
        return release(ictx, pending);
    }
    in_flight_[pending] = {lib, deposit ? r.op : 0};
    const Regions regions = deposit ? r.regions : Regions{};
    Words rx = rx_words(pending, regions, r.mlength);
    ictx.charge(post_cost() * commands_for(regions.size()));
    if (regions.size() > 1) {
        post_regions(pending, regions, stamp(ictx));
        rx[PTL_RX_FLAGS] = PTL_RX_SEGS;
    }
    post(rx, stamp(ictx));
}

void SsNal::finish_receive(host::InterruptContext& ictx, Library* lib, uint64_t op, bool ok) {
    ictx.charge(costs_.portals_event);
    if (auto ack = lib->receive_done(op, ok, stamp(ictx))) transmit_from_interrupt(ictx, std::move(*ack));
}

void SsNal::release(host::InterruptContext& ictx, uint32_t pending) {
    Words w{};
    w[PTL_CMD_OP] = PTL_CMD_RELEASE;
    w[PTL_RELEASE_PENDING] = pending;
    ictx.charge(post_cost());
    post(w, stamp(ictx));
}

}  // namespace niclab::seastar
