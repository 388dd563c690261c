// Host PIO through the PCI bus: posted stores through the store buffer (merging
// consecutive stores into bursts), loads ordered after earlier stores with the measured
// linear stall, and flush (membar). The CPU time of every stall is charged with
// ctx.compute, so it shows in the process's measured overheads.
#include <algorithm>
#include <cstring>

#include "niclab/bus/pci.hpp"
#include "niclab/sim/activity.hpp"

namespace niclab::bus {

namespace {
// The time an entry may go on the bus: once it reached the bridge, and, while it can
// still merge, once the merge window after its last store has passed.
Time write_earliest(Time ready, Time open_until, bool closed) { return closed ? ready : std::max(ready, open_until); }
}  // namespace

uint32_t PciBus::pending_stores() const { return count_; }

void PciBus::store(host::ProcessContext& ctx, uint64_t addr, std::span<const uint8_t> bytes) {
    check_access(addr, bytes.size(), "store");
    const Window& w = window_for(addr, bytes.size(), "store");
    ctx.compute(params_.store_issue_cost);
    ++counters_.stores;
    const auto n = static_cast<uint32_t>(bytes.size());
    const uint64_t limit = params_.merge_limit_bytes;
    const Time arrives = ctx.now() + params_.host_path_latency;

    if (count_ > issued_) {  // the tail has not gone on the bus yet
        const uint32_t tail = count_ - 1;
        Entry& t = entry(tail);
        const bool contiguous = !t.closed && t.window == &w && t.addr + t.bytes == addr &&
                                t.addr / limit == (addr + n - 1) / limit;
        if (contiguous) {
            std::memcpy(t.data + t.bytes, bytes.data(), n);
            t.bytes += n;
            t.ready = arrives;  // the burst can go once its last data reached the bridge
            t.open_until = arrives + params_.merge_window;
            if (t.bytes >= limit) t.closed = true;
            ++counters_.merged_stores;
            if (tail == issued_ && write_requested_) {
                find_request(Kind::pio_write, 0)->earliest = write_earliest(t.ready, t.open_until, t.closed);
                schedule_arbitration();
            }
            return;
        }
        close_tail();  // a store elsewhere ends the open burst
    }

    if (count_ == entries_.size()) {
        ++counters_.store_stalls;
        stall_until_entries_below(ctx, count_, counters_.store_stall_time);
    }
    Entry& e = entry(count_++);
    e.addr = addr;
    e.bytes = n;
    std::memcpy(e.data, bytes.data(), n);
    e.window = &w;
    e.ready = ctx.now() + params_.host_path_latency;
    e.open_until = e.ready + params_.merge_window;
    e.closed = n >= limit;  // a store as wide as the merge limit is a burst of its own
    e.issued = false;
    request_next_write();
}

void PciBus::close_tail() {
    if (count_ <= issued_) return;
    const uint32_t tail = count_ - 1;
    Entry& t = entry(tail);
    if (t.closed) return;
    t.closed = true;
    if (tail == issued_ && write_requested_) {
        find_request(Kind::pio_write, 0)->earliest = t.ready;
        schedule_arbitration();
    }
}

void PciBus::request_next_write() {
    if (write_requested_ || issued_ >= count_) return;
    const Entry& e = entry(issued_);
    write_requested_ = true;
    request(Kind::pio_write, 0, write_earliest(e.ready, e.open_until, e.closed), Time{});
}

void PciBus::grant_write(Time start) {
    Entry& e = entry(issued_);
    e.closed = true;
    e.issued = true;
    e.done = start + write_time(e.bytes);
    // For a breakdown the write is on the PIO path from its store on: through the host
    // bridge, held for merging, then on the bus.
    if (sim::ActivityLog* log = kernel_.activity())
        log->record(sim::Activity::BusPio, cpu_.node(), e.ready - params_.host_path_latency, e.done, log->intern("write"));
    ++issued_;
    write_requested_ = false;
    ++counters_.pio_writes;
    counters_.bytes_pio_written += e.bytes;
    e.event = kernel_.schedule_at(e.done, [this] { complete_write(); });
    request_next_write();
}

void PciBus::complete_write() {
    // Retire the entry before the target sees the data: the target may throw (bad input),
    // and the store buffer must stay consistent if the run goes on.
    const Entry& e = entry(0);
    uint8_t data[64];
    const uint32_t n = e.bytes;
    std::memcpy(data, e.data, n);
    const Window* w = e.window;
    const uint64_t offset = e.addr - w->base;
    head_ = (head_ + 1) % static_cast<uint32_t>(entries_.size());
    --count_;
    --issued_;
    w->target->pci_write(offset, std::span<const uint8_t>(data, n), kernel_.now());
}

// A stalled fiber that resumes at the very picosecond a write completes may run before
// that completion's event: retire such writes here, so the stall ends exactly then.
void PciBus::retire_due_writes() {
    while (issued_ > 0 && entry(0).done <= kernel_.now()) {
        kernel_.cancel(entry(0).event);
        complete_write();
    }
}

void PciBus::stall_until_entries_below(host::ProcessContext& ctx, uint32_t limit, Time& stalled) {
    for (;;) {
        retire_due_writes();
        if (count_ < limit || count_ == 0) return;
        Time t;
        if (issued_ > 0) {
            t = entry(0).done;
        } else {
            t = predict_grant(Kind::pio_write, 0) + write_time(entry(0).bytes);
        }
        const Time d = std::max(t - ctx.now(), Time::ns(1));
        ctx.compute(d);
        stalled += d;
    }
}

void PciBus::flush(host::ProcessContext& ctx) {
    close_tail();
    stall_until_entries_below(ctx, 1, counters_.flush_time);
}

void PciBus::load(host::ProcessContext& ctx, uint64_t addr, std::span<uint8_t> out) {
    check_access(addr, out.size(), "load");
    const Window& w = window_for(addr, out.size(), "load");
    const Time issued = ctx.now();
    // Uncached loads with side effects are ordered after earlier stores.
    close_tail();
    stall_until_entries_below(ctx, 1, counters_.ordering_wait);

    uint32_t slot = 0;
    while (slot < reads_.size() && reads_[slot].in_use) ++slot;
    if (slot == reads_.size()) reads_.emplace_back();
    {
        ReadSlot& s = reads_[slot];
        s = ReadSlot{};
        s.in_use = true;
        s.offset = addr - w.base;
        s.window = &w;
        s.out = out;
    }
    const auto n = static_cast<uint32_t>(out.size());
    const Time occupancy = read_stall(n) - params_.host_path_latency * 2;
    const Time earliest = ctx.now() + params_.host_path_latency;
    if (!read_at_once(ctx, slot, earliest, occupancy)) {
        request(Kind::pio_read, slot, earliest, occupancy);
        while (!reads_[slot].granted) {
            const Time t = predict_grant(Kind::pio_read, slot);
            ctx.compute(std::max(t - ctx.now(), Time::ns(1)));
        }
    }
    const Time end = reads_[slot].start + occupancy + params_.host_path_latency;
    if (end > ctx.now()) ctx.compute(end - ctx.now());
    ++counters_.pio_reads;
    counters_.bytes_pio_read += n;
    if (sim::ActivityLog* log = kernel_.activity()) log->record(sim::Activity::BusPio, cpu_.node(), issued, ctx.now(), log->intern("read"));
    std::exception_ptr error = reads_[slot].error;
    reads_[slot] = ReadSlot{};
    if (error) std::rethrow_exception(error);
}

// A read on an idle bus: its request would schedule the arbitration event at `earliest`,
// then the CPU would stall until then, the stall's end the very next event after it. When
// that stall ends at once (nothing comes before it), the arbitration is done right after
// it, in place, and counted as the event it stands for: the read does not touch the CPU's
// accounting (PciTarget::read_may_follow_stall), and the stall's end changes only that,
// so neither can tell which came first; whatever the read schedules gets the sequence
// numbers it would have had. False: nothing done; load goes on.
bool PciBus::read_at_once(host::ProcessContext& ctx, uint32_t slot, Time earliest, Time occupancy) {
    const ReadSlot& s = reads_[slot];
    if (!pending_.empty() || arbitration_scheduled_ || free_at_ > earliest ||
        !s.window->target->read_may_follow_stall(s.offset, s.out.size()))
        return false;
    if (!ctx.compute_at_once(earliest - ctx.now())) return false;
    kernel_.fired_in_place();
    grant(Request{Kind::pio_read, slot, earliest, occupancy, request_seq_++}, earliest);
    return true;
}

}  // namespace niclab::bus
