// The NIU's back end: it moves launched messages onto the Arctic link (high priority
// first, CRC appended, 160 MB/s) and takes arriving ones into the receive queues (CRC
// checked, RDMA rules enforced, refused when the queue is full).
#include <algorithm>
#include <string>

#include "niclab/sim/activity.hpp"
#include "niclab/systems/startx/niu.hpp"

namespace niclab::startx {

void Niu::kick_back_end() {
    if (back_end_busy_) return;
    const Time now = kernel_.now();
    Time next = Time::max();
    for (uint32_t p = 0; p < kPriorities; ++p) {  // high (0) before low (1)
        TxQueue& q = tx_[p];
        if (q.launched.empty() || !port_.can_inject(Priority(p))) continue;
        const Time ready = q.launched.front().launched_at + sync_time();
        if (ready > now) {
            next = std::min(next, ready);
            continue;
        }
        const TxSlot& s = q.launched.front();
        WireMessage w;
        w.msg = s.msg;
        w.crc = message_crc(s.msg);
        w.source = params_.node_id;
        w.rdma = s.rdma;
        back_end_busy_ = true;
        ++counters_.messages_injected[p];
        engine_busy(s.launched_at, s.launched_at + sync_time());  // the FIFO flags crossing over
        engine_busy(now, now + link_time(w));                     // the words read out onto the link
        port_.inject(w);
        // The FIFO slot frees as the words are read out onto the link.
        kernel_.schedule_in(link_time(w), [this, p] { back_end_done(Priority(p)); });
        return;
    }
    if (next != Time::max()) kernel_.schedule_at(next, [this] { kick_back_end(); });
}

void Niu::back_end_done(Priority p) {
    tx_[uint32_t(p)].launched.pop_front();
    back_end_busy_ = false;
    changed();
    tx_dma_step();
    kick_back_end();
}

void Niu::injection_ready(Priority) { kick_back_end(); }

void Niu::engine_busy(Time start, Time end) {
    if (sim::ActivityLog* log = kernel_.activity()) log->record(sim::Activity::NicEngine, params_.node_id, start, end);
}

bool Niu::offer(const WireMessage& m) {
    if (faulted()) return false;  // a stopped NIU takes nothing: messages wait in the network
    bool taken = false;
    guarded([&] { taken = take(m); });
    return taken;
}

bool Niu::take(const WireMessage& m) {
    if (message_crc(m.msg) != m.crc) {  // 002 §4 L139: checked on every arriving message
        ++counters_.crc_errors;
        return true;  // dropped
    }
    const Header h = m.header();
    const Priority p = h.priority;
    const std::string node = "node " + std::to_string(params_.node_id) + ": ";
    if (m.rdma) {
        if (!window_.open)
            throw RdmaError(node + "RDMA message from node " + std::to_string(m.source) +
                            " but this node's driver opened no RDMA window");
        if (m.source != window_.sender)
            throw RdmaError(node + "RDMA message from node " + std::to_string(m.source) +
                            " into a window opened for node " + std::to_string(window_.sender));
    } else if (p == Priority::high && window_.open) {
        throw RdmaError(node + "high-priority message from node " + std::to_string(m.source) +
                        " while an RDMA window is open (RDMA cannot coexist with other high-priority modes)");
    }
    RxQueue& q = rx_[uint32_t(p)];
    if (q.messages.size() >= params_.queue_messages) {
        ++counters_.messages_refused[uint32_t(p)];
        return false;
    }
    q.messages.push_back({m.msg, kernel_.now() + sync_time()});
    engine_busy(kernel_.now(), kernel_.now() + sync_time());  // into the host's view of the queue
    ++counters_.messages_accepted[uint32_t(p)];
    kernel_.schedule_in(sync_time(), [this, p] { rx_visible(p); });
    return true;
}

void Niu::rx_visible(Priority p) {
    if (rx_interrupt_enabled_ && rx_interrupt_) {
        ++counters_.interrupts;
        bus_.raise_interrupt(rx_interrupt_);
    }
    changed();
    if (p == Priority::high) rx_drain();
}

}  // namespace niclab::startx
