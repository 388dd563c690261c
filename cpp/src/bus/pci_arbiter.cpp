// The PCI arbiter: one occupancy timeline. Every would-be master (the store buffer's
// next write, a reading process, a DMA engine's next burst) posts one request; when the
// bus is free the oldest ready request — lowest (earliest, sequence) — is granted.
#include <algorithm>

#include "niclab/bus/pci.hpp"

namespace niclab::bus {

void PciBus::request(Kind kind, uint32_t id, Time earliest, Time duration, bool last_act) {
    pending_.push_back({kind, id, earliest, duration, request_seq_++});
    schedule_arbitration(last_act);
}

PciBus::Request* PciBus::find_request(Kind kind, uint32_t id) {
    for (Request& r : pending_)
        if (r.kind == kind && r.id == id) return &r;
    return nullptr;
}

void PciBus::schedule_arbitration(bool last_act) {
    if (pending_.empty()) return;
    Time t = Time::max();
    for (const Request& r : pending_) t = std::min(t, r.earliest);
    t = std::max({t, free_at_, kernel_.now()});
    if (arbitration_scheduled_) {
        if (arbitration_at_ <= t) return;  // the earlier pass reschedules as needed
        kernel_.cancel(arbitration_event_);
        arbitration_scheduled_ = false;
    }
    if (last_act && kernel_.fire_inline(t, kernel_.context())) return arbitrate();
    arbitration_scheduled_ = true;
    arbitration_at_ = t;
    arbitration_event_ = kernel_.schedule_at(t, [this] {
        arbitration_scheduled_ = false;
        arbitrate();
    });
}

Time PciBus::duration_of(const Request& r) const {
    if (r.kind != Kind::pio_write) return r.duration;
    return write_time(entry(issued_).bytes);
}

// Always the last act of an event's callback: its own, or burst_done's (schedule_arbitration).
void PciBus::arbitrate() {
    const Time now = kernel_.now();
    if (free_at_ > now) return schedule_arbitration(true);
    auto best = pending_.end();
    for (auto it = pending_.begin(); it != pending_.end(); ++it) {
        if (it->earliest > now) continue;
        if (best == pending_.end() || it->earliest < best->earliest ||
            (it->earliest == best->earliest && it->seq < best->seq))
            best = it;
    }
    if (best == pending_.end()) return schedule_arbitration(true);
    const Request r = *best;
    pending_.erase(best);
    grant(r, now);
    schedule_arbitration(true);
}

void PciBus::grant(const Request& r, Time now) {
    const Time d = duration_of(r);
    free_at_ = now + d;
    ++counters_.transactions;
    counters_.busy += d;
    counters_.arbitration_wait += now - r.earliest;
    switch (r.kind) {
    case Kind::pio_write: grant_write(now); break;
    case Kind::pio_read: {
        ReadSlot& s = reads_[r.id];
        s.granted = true;
        s.start = now;
        // The target sees the read at the start of its slot; an error it raises belongs
        // to the reading process, which rethrows it in its own fiber.
        try {
            s.window->target->pci_read(s.offset, s.out, now);
        } catch (...) {
            s.error = std::current_exception();
        }
        break;
    }
    case Kind::dma_burst: grant_burst(r.id, now); break;
    }
}

Time PciBus::predict_grant(Kind kind, uint32_t id) const {
    // Walk the pending requests in grant order up to the one asked about, assuming no
    // new request overtakes it (exact unless one does; callers re-check).
    // Selection by increasing (earliest, seq) without allocating: pending_ is tiny.
    auto key_less = [](const Request& x, Time e, uint64_t q) {
        return x.earliest != e ? x.earliest < e : x.seq < q;
    };
    Time t = std::max(free_at_, kernel_.now());
    Time last_e = Time::ps(-1);
    uint64_t last_q = 0;
    for (std::size_t n = 0; n < pending_.size(); ++n) {
        const Request* next = nullptr;
        for (const Request& r : pending_) {
            if (!key_less(r, last_e, last_q) && !(r.earliest == last_e && r.seq == last_q) &&
                (!next || key_less(r, next->earliest, next->seq)))
                next = &r;
        }
        if (!next) break;
        last_e = next->earliest;
        last_q = next->seq;
        t = std::max(t, next->earliest);
        if (next->kind == kind && next->id == id) return t;
        t += duration_of(*next);
    }
    return t;
}

}  // namespace niclab::bus
