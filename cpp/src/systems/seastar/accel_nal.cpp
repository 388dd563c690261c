#include "niclab/systems/seastar/accel_nal.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "niclab/fw/hw.h"
#include "niclab/fw/mailbox.h"

namespace niclab::seastar {

using namespace portals;

namespace {

std::string who(ptl_nid_t nid, ptl_pid_t pid) {
    return "accelerated process (nid " + std::to_string(nid) + ", pid " + std::to_string(pid) + ")";
}

}  // namespace

AccelNal::AccelNal(SsNal& kernel, ptl_pid_t pid)
    : kernel_(kernel), nic_(kernel.nic()), cpu_(kernel.cpu()), memory_(kernel.memory()), pid_(pid) {
    kernel_.check_live();
    uint32_t mailbox = 0;
    const ptl_niccb& cb = kernel_.niccb();
    if (!kernel_.has(PTL_FW_FEAT_ACCEL) || !nic_.image()->find_symbol(PTL_ACCEL_MAILBOX_SYMBOL, mailbox))
        throw Error("node " + std::to_string(kernel_.nid()) +
                    ": the loaded Portals firmware has no accelerated process (build option PTL_ACCEL; the image "
                    "portals_accel has one)");
    if (pid >= PTL_PID_FIRMWARE)
        throw PortalsError(PTL_PROCESS_INVALID, "accelerated process: pid " + std::to_string(pid) + " does not fit 16 bits");
    commands_.emplace(nic_, mailbox);
    n_tx_ = cb.tx_pendings;
    n_rx_ = cb.rx_pendings;
    max_mes_ = cb.accel_mes;
    max_mds_ = cb.accel_mds;
    // Its own region: upper pendings in id order (its pools have the generic layout),
    // then its EQ. An RX pending may have two unread events here (MATCHED, then
    // RX_DONE), so the queue holds two per pending, the answer to the one unlink the
    // process may be waiting for, and the drop events the firmware leaves unread.
    const uint32_t pendings = n_tx_ + n_rx_;
    eq_entries_ = 1;
    while (eq_entries_ <= 2 * pendings + 1 + PTL_ACCEL_DROP_EVENTS) eq_entries_ <<= 1;
    upper_base_ = kAccelRegionBase;
    eq_base_ = upper_base_ + ((uint64_t(pendings) * PTL_UPPER_BYTES + 4095) & ~uint64_t(4095));
    const uint64_t region = eq_base_ + uint64_t(eq_entries_) * PTL_EQ_BYTES - upper_base_;
    if (upper_base_ + region > kKernelRegionBase) throw Error("accelerated region overlaps the kernel's");
    memory_.fill(upper_base_, 0, region);
    tx_free_.reserve(n_tx_);
    for (uint32_t id = n_tx_; id-- > 0;) tx_free_.push_back(id);
    in_flight_ = PendingTable<InFlight>(n_tx_, n_rx_);
    md_at_.assign(max_mds_, PTL_INVALID_HANDLE);
    // No interrupt tells the process an event arrived: it sees the store land.
    kernel_.seastar().host_bridge().watch_stores(eq_base_, eq_base_ + uint64_t(eq_entries_) * PTL_EQ_BYTES,
                                                 [this] { eq_written_.notify_all(); });
    kernel_.accel_init(pid, upper_base_, uint32_t(region), uint32_t(eq_base_ - upper_base_), eq_entries_);
}

AccelNal::~AccelNal() { kernel_.seastar().host_bridge().watch_stores(0, 0, {}); }

void AccelNal::check_live() const { kernel_.check_live(); }

Limits AccelNal::limits() const {
    Limits l;
    l.pt_entries = std::min<uint32_t>(l.pt_entries, 64);  // PTL_ACCEL_PORTALS of the firmware
    l.max_mes = max_mes_;
    l.max_mds = max_mds_;
    return l;
}

void AccelNal::attach(Library& lib) {
    if (lib_) throw PortalsError(PTL_PROCESS_INVALID, who(nid(), pid_) + " already has its network interface");
    if (lib.id().pid != pid_)
        throw PortalsError(PTL_PROCESS_INVALID, "pid " + std::to_string(lib.id().pid) + " is not the " + who(nid(), pid_));
    const Limits& l = lib.limits();
    const Limits fw = limits();
    if (l.pt_entries > fw.pt_entries || l.max_mes > fw.max_mes || l.max_mds > fw.max_mds)
        throw PortalsError(PTL_NO_SPACE, who(nid(), pid_) + ": Limits (pt_entries " + std::to_string(l.pt_entries) +
                                             ", max_mes " + std::to_string(l.max_mes) + ", max_mds " +
                                             std::to_string(l.max_mds) + ") exceed the firmware's tables (" +
                                             std::to_string(fw.pt_entries) + ", " + std::to_string(fw.max_mes) + ", " +
                                             std::to_string(fw.max_mds) + "): use AccelNal::limits()");
    lib_ = &lib;
}

void AccelNal::detach(Library& lib) {
    if (lib_ == &lib) lib_ = nullptr;
}

// ---------------------------------------------------------------- commands

// User-level PIO: the eight words, the tail and the doorbell across HyperTransport, as
// the kernel driver's commands cost (SsNal::post_cost), but no trap.
void AccelNal::post(host::ProcessContext& ctx, const MailboxWords& w) {
    const bus::HyperTransportParams& pio = kernel_.pio();
    while (commands_->looks_full()) {
        ctx.compute(pio.pio_read);
        if (!commands_->refresh_head()) ctx.sleep_for(Time::us(1));  // the firmware drains it
    }
    ctx.compute(pio.pio_write * 3 + (kernel_.has(PTL_FW_FEAT_WRITE_THROUGH) ? Time{} : pio.pio_read * 2));
    ++counters_.commands;
    commands_->push(w);
}

void AccelNal::check_md(const ptl_md_t& md, const char* call) const {
    if (md.options & PTL_MD_IOVEC)
        throw PortalsError(PTL_MD_ILLEGAL,
                           std::string(call) + ": " + who(nid(), pid_) + ": the MD at 0x" + [&] {
                               char b[24];
                               std::snprintf(b, sizeof b, "%llx", (unsigned long long)(md.iov.empty() ? md.start : md.iov[0].iov_base));
                               return std::string(b);
                           }() + " is non-contiguous (PTL_MD_IOVEC, " + std::to_string(md.iov.size()) +
                               " regions): accelerated mode takes physically contiguous buffers only (seed 001 §3.3)");
}

void AccelNal::me_attached(host::ProcessContext& ctx, ptl_handle_me_t me, const MeSpec& m) {
    MailboxWords ig{};
    ig[PTL_CMD_OP] = PTL_CMD_ME_IGNORE;
    ig[PTL_ME_IGNORE_LO] = uint32_t(m.ignore_bits);
    ig[PTL_ME_IGNORE_HI] = uint32_t(m.ignore_bits >> 32);
    if (m.ignore_bits) post(ctx, ig);
    MailboxWords w{};
    w[PTL_CMD_OP] = PTL_CMD_ME_ATTACH | (m.position == PTL_INS_AFTER ? PTL_ME_FLAG_AFTER : 0u) |
                    (m.unlink_op == PTL_UNLINK ? PTL_ME_FLAG_UNLINK : 0u) |
                    (m.base != PTL_INVALID_HANDLE ? PTL_ME_FLAG_BASE : 0u);
    w[PTL_ME_INDEX] = (me & 0xFFFFu) | (m.base != PTL_INVALID_HANDLE ? (m.base & 0xFFFFu) << 16 : 0u);
    w[PTL_ME_PT] = m.pt_index;
    w[PTL_ME_NID] = m.match_id.nid;
    w[PTL_ME_PID] = m.match_id.pid;
    w[PTL_ME_BITS_LO] = uint32_t(m.match_bits);
    w[PTL_ME_BITS_HI] = uint32_t(m.match_bits >> 32);
    post(ctx, w);
}

void AccelNal::md_attached(host::ProcessContext& ctx, ptl_handle_me_t me, ptl_handle_md_t md, const ptl_md_t& d,
                           ptl_unlink_t unlink_op) {
    md_at_.at(md & 0xFFFFu) = md;
    MailboxWords w{};
    w[PTL_CMD_OP] = PTL_CMD_MD_ATTACH | (unlink_op == PTL_UNLINK ? PTL_ME_FLAG_UNLINK : 0u);
    w[PTL_MD_INDEX] = (md & 0xFFFFu) | (me & 0xFFFFu) << 16;
    w[PTL_MD_START_LO] = uint32_t(d.start);
    w[PTL_MD_START_HI] = uint32_t(d.start >> 32);
    w[PTL_MD_LENGTH] = uint32_t(d.length);
    w[PTL_MD_THRESHOLD] = uint32_t(int32_t(d.threshold));
    w[PTL_MD_MAX_SIZE_W] = uint32_t(d.max_size);
    w[PTL_MD_OPTIONS] = d.options;
    post(ctx, w);
}

void AccelNal::me_unlink(host::ProcessContext& ctx, ptl_handle_me_t me) {
    const uint32_t status = ask_unlink(ctx, PTL_CMD_ME_UNLINK, me & 0xFFFFu);
    if (status == PTL_UNLINK_BUSY) {
        ++counters_.unlinks_refused;
        throw PortalsError(PTL_ME_IN_USE, "me_unlink: " + who(nid(), pid_) + ": the firmware matched a message to me handle " +
                                              std::to_string(me) + "'s MD since the library last looked, and it is still in flight");
    }
    if (status == PTL_UNLINK_ABSENT && lib_ && lib_->me_valid(me))
        throw Error(who(nid(), pid_) + ": the firmware has no match entry " + std::to_string(me & 0xFFFFu) +
                    " but the library has me handle " + std::to_string(me));
}

void AccelNal::md_unlink(host::ProcessContext& ctx, ptl_handle_md_t md) {
    // Bound MDs (PtlMDBind) live in the library only: nothing to ask the firmware. The
    // library checked the handle, so its index is within the firmware's table.
    const uint32_t index = md & 0xFFFFu;
    if (md_at_.at(index) != md) return;
    const uint32_t status = ask_unlink(ctx, PTL_CMD_MD_UNLINK, index);
    if (status == PTL_UNLINK_BUSY) {
        ++counters_.unlinks_refused;
        throw PortalsError(PTL_MD_IN_USE, "md_unlink: " + who(nid(), pid_) + ": the firmware matched a message to md handle " +
                                              std::to_string(md) + " since the library last looked, and it is still in flight");
    }
    md_at_[index] = PTL_INVALID_HANDLE;
    if (status == PTL_UNLINK_ABSENT && lib_ && lib_->md_valid(md))
        throw Error(who(nid(), pid_) + ": the firmware has no MD " + std::to_string(index) +
                    " but the library has md handle " + std::to_string(md));
}

uint32_t AccelNal::ask_unlink(host::ProcessContext& ctx, uint32_t command, uint32_t index) {
    MailboxWords w{};
    w[PTL_CMD_OP] = command;
    w[PTL_UNLINK_INDEX] = index;
    unlink_answer_.reset();
    post(ctx, w);
    // The answer follows every event the firmware posted before it: the library has
    // replayed them all (the matches it had not seen) when it is read.
    for (;;) {
        poll(ctx);
        if (unlink_answer_) return *std::exchange(unlink_answer_, std::nullopt);
        ctx.wait_for(eq_written_, [this] { return unlink_answer_.has_value() || work_waiting(); });
    }
}

void AccelNal::tell_counted(host::ProcessContext& ctx) {
    if (!lib_) return;
    const ptl_handle_md_t md = lib_->take_counted();
    if (md == PTL_INVALID_HANDLE || md_at_.at(md & 0xFFFFu) != md) return;  // bound: the firmware has no copy
    MailboxWords w{};
    w[PTL_CMD_OP] = PTL_CMD_MD_COUNT;
    w[PTL_COUNT_INDEX] = md & 0xFFFFu;
    post(ctx, w);
}

// ---------------------------------------------------------------- transmit

void AccelNal::transmit(host::ProcessContext& ctx, Send s) {
    check_live();
    tell_counted(ctx);  // a put from an attached MD used up one of its operations
    if (s.payload.size() > 1)  // check_md refused such MDs; a library bug if this happens
        throw PortalsError(PTL_MD_ILLEGAL, who(nid(), pid_) + ": a message of " + std::to_string(s.payload.size()) +
                                               " regions; accelerated mode sends contiguous buffers only");
    while (tx_free_.empty()) {
        poll(ctx);
        if (tx_free_.empty()) ctx.wait_for(eq_written_, [this] { return work_waiting(); });
    }
    const uint32_t pending = tx_free_.back();
    tx_free_.pop_back();
    send_now(ctx, pending, s);
}

void AccelNal::send_now(host::ProcessContext& ctx, uint32_t pending, Send& s) {
    ++counters_.transmits;
    if (kernel_.has(PTL_FW_FEAT_VSMALL)) pack_inline(s, memory_);
    ctx.compute(cpu_.config().copy_time(PTL_HDR_BYTES));
    memory_.write(upper_addr(pending), {reinterpret_cast<const uint8_t*>(&s.hdr), sizeof s.hdr});
    in_flight_[pending] = {s.op, false};
    post(ctx, tx_words(pending, s));
}

// ---------------------------------------------------------------- events

bool AccelNal::event_waiting() const {
    uint32_t type = 0;
    memory_.read(eq_addr(eq_head_), {reinterpret_cast<uint8_t*>(&type), sizeof type});
    return type != 0;
}

void AccelNal::enter(host::ProcessContext& ctx) {
    check_live();
    ctx.compute(kernel_.costs().api_call);  // the library's work, at user level
    poll(ctx);
}

void AccelNal::wait_event(host::ProcessContext& ctx, Library& lib, ptl_handle_eq_t eq) {
    while (lib.eq_pending(eq) == 0) {
        ctx.wait_for(eq_written_, [this] { return work_waiting(); });
        poll(ctx);
    }
}

void AccelNal::serve(host::ProcessContext& ctx) {
    ctx.wait_for(eq_written_, [this] { return work_waiting(); });
    enter(ctx);
}

void AccelNal::poll(host::ProcessContext& ctx) {
    if (polling_) return;  // an event's handling transmits, which may poll: once is enough
    polling_ = true;
    ++counters_.polls;
    uint32_t ev[4];
    uint32_t taken = 0, drop_events = 0;
    while (take_event(memory_, eq_base_, eq_entries_, eq_head_, ev)) {
        ++taken;
        ++counters_.events;
        ctx.compute(kernel_.costs().event);
        drop_events += PTL_EV_TYPE_OF(ev[PTL_EV_TYPE]) == PTL_EV_DROPPED;
        handle(ctx, ev);
    }
    if (drop_events) {  // their room in the EQ is free again (PTL_CMD_DROPS_SEEN)
        MailboxWords w{};
        w[PTL_CMD_OP] = PTL_CMD_DROPS_SEEN;
        w[PTL_DROPS_SEEN_EVENTS] = drop_events;
        post(ctx, w);
    }
    polling_ = false;
    // Another fiber of the process (PortalsProcess's injector and its event server)
    // may be waiting for what this poll took: an unlink's answer, a free TX pending.
    if (taken) eq_written_.notify_all();
}

void AccelNal::handle(host::ProcessContext& ctx, const uint32_t (&ev)[4]) {
    const uint32_t type = PTL_EV_TYPE_OF(ev[PTL_EV_TYPE]);
    const uint32_t pending = ev[PTL_EV_PENDING];
    if (type == PTL_EV_DROPPED) {
        counters_.dropped += ev[PTL_EV_WORD2];
        if (lib_) lib_->count_drop(ev[PTL_EV_WORD2]);
        return;
    }
    if (type == PTL_EV_UNLINK_ANSWER) {
        unlink_answer_ = ev[PTL_EV_WORD3];
        return;
    }
    if (pending >= in_flight_.size())
        throw Error(who(nid(), pid_) + ": firmware event names pending " + std::to_string(pending) + " outside the pool");
    switch (type) {
        case PTL_EV_MATCHED:
        case PTL_EV_MATCHED_COMPLETE:
            return matched(ctx, pending, PTL_EV_MD_OF(ev[PTL_EV_TYPE]) - 1u, ev[PTL_EV_WORD2], ev[PTL_EV_WORD3],
                           type == PTL_EV_MATCHED_COMPLETE);
        case PTL_EV_NEW_MSG: return announced(ctx, pending, ev[PTL_EV_WORD3], false);
        case PTL_EV_NEW_MSG_COMPLETE: return announced(ctx, pending, ev[PTL_EV_WORD3], true);
        case PTL_EV_RX_DONE: {
            InFlight f = std::exchange(in_flight_[pending], {});
            if (f.op) finish_receive(ctx, f.op, ev[PTL_EV_WORD2] == NICLAB_DMA_OK);
            return release(ctx, pending);
        }
        case PTL_EV_TX_DONE: {
            InFlight f = std::exchange(in_flight_[pending], {});
            if (lib_ && f.op) {
                ctx.compute(kernel_.costs().portals_event);
                lib_->send_done(f.op, ev[PTL_EV_WORD2] == NICLAB_DMA_OK, ctx.now());
            }
            if (f.reply) return release(ctx, pending);  // a reply from an RX pending
            if (!backlog_.empty()) {
                Send s = std::move(backlog_.front());
                backlog_.pop_front();
                return send_now(ctx, pending, s);
            }
            tx_free_.push_back(pending);
            return;
        }
    }
    throw Error(who(nid(), pid_) + ": unknown firmware event type " + std::to_string(type));
}

// The firmware matched a put or get (its MD index + 1 in the event): the library
// records the same decision and posts the start event.
void AccelNal::matched(host::ProcessContext& ctx, uint32_t pending, uint32_t md_index, uint32_t offset,
                       uint32_t mlength, bool complete) {
    ++counters_.matched;
    ptl_hdr hdr;
    memory_.read(upper_addr(pending), {reinterpret_cast<uint8_t*>(&hdr), sizeof hdr});
    Receive r;
    const ptl_handle_md_t md = md_index < md_at_.size() ? md_at_[md_index] : PTL_INVALID_HANDLE;
    last_match_ = {md, offset, mlength};
    // A get's reply header is in the second half (the firmware sends it); the first
    // holds the request.
    const bool is_get = hdr.type == PTL_MSG_GET;
    if (lib_) {
        ctx.compute(kernel_.costs().portals_event);
        r = lib_->commit(hdr, hdr.src_nid, md, offset, mlength, ctx.now());
    }
    if (is_get) {
        in_flight_[pending] = {r.reply ? r.reply->op : 0, true};  // the firmware sends it
        return;
    }
    if (!complete) {
        in_flight_[pending] = {r.action == Receive::Action::deposit ? r.op : 0, false};
        return;
    }
    if (r.action == Receive::Action::deposit) {
        ctx.copy(unpack_inline(hdr, r, memory_));
        finish_receive(ctx, r.op, true);
    }
    release(ctx, pending);
}

// A reply or an ack for this process: placed by the library (no matching), as the
// kernel does for generic processes, but here at user level.
void AccelNal::announced(host::ProcessContext& ctx, uint32_t pending, uint32_t src, bool complete) {
    ++counters_.announced;
    ptl_hdr hdr;
    memory_.read(upper_addr(pending), {reinterpret_cast<uint8_t*>(&hdr), sizeof hdr});
    Receive r;
    if (lib_) {
        ctx.compute(kernel_.costs().portals_event);
        r = lib_->parse(hdr, src, ctx.now());
        tell_counted(ctx);  // an ack or reply is an operation on its MD
    }
    const bool deposit = r.action == Receive::Action::deposit;
    if (complete) {
        if (deposit) {
            ctx.copy(unpack_inline(hdr, r, memory_));
            finish_receive(ctx, r.op, true);
        }
        return release(ctx, pending);
    }
    in_flight_[pending] = {deposit ? r.op : 0, false};
    post(ctx, rx_words(pending, deposit ? r.regions : Regions{}, r.mlength));
}

void AccelNal::finish_receive(host::ProcessContext& ctx, uint64_t op, bool ok) {
    if (!lib_) return;
    ctx.compute(kernel_.costs().portals_event);
    if (auto ack = lib_->receive_done(op, ok, ctx.now())) {
        if (tx_free_.empty()) {
            backlog_.push_back(std::move(*ack));
            return;
        }
        const uint32_t pending = tx_free_.back();
        tx_free_.pop_back();
        send_now(ctx, pending, *ack);
    }
}

void AccelNal::release(host::ProcessContext& ctx, uint32_t pending) {
    MailboxWords w{};
    w[PTL_CMD_OP] = PTL_CMD_RELEASE;
    w[PTL_RELEASE_PENDING] = pending;
    post(ctx, w);
}

}  // namespace niclab::seastar
