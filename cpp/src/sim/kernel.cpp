#include "niclab/sim/kernel.hpp"

#include <algorithm>
#include <bit>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace niclab::sim {

namespace {
// t + d, or never for a t that is never (or so late that the sum would overflow).
Time plus(Time t, Time d) { return t >= Time::max() - d ? Time::max() : t + d; }
}  // namespace

Kernel::Kernel() {
    reset_queues(1);
    queues_[0].rest.reserve(1024);
    slots_.reserve(1024);
}

// Inline: every event takes a slot and gives it back (called apart, the two were a
// twentieth of a bulk transfer's host instructions); growing is the rare path.
inline uint32_t Kernel::alloc_slot() {
    if (free_head_ == UINT32_MAX) [[unlikely]]
        return grow_slots();
    const uint32_t s = free_head_;
    free_head_ = slots_[s].next_free;
    return s;
}

uint32_t Kernel::grow_slots() {
    slots_.emplace_back();
    return uint32_t(slots_.size() - 1);
}

inline void Kernel::free_slot(uint32_t s) {
    slots_[s].cb.reset();
    ++slots_[s].generation;
    slots_[s].next_free = free_head_;
    free_head_ = s;
}

namespace {

// The event queues are 4-ary heaps: an entry's four children sit side by side, so a sift
// passes half as many levels, each a cache line or three (bench_kernel, 1,024 events
// pending: 13.5M events/s with a binary heap, 15.3M). Keys are unique, so any heap pops
// the same order.
constexpr size_t kEventArity = 4;

// A push comparing v where it is rather than reading it back from the heap's end:
// std::push_heap's read of an entry just written field by field stalled on store
// forwarding (a third of schedule_at's time). v is never one of heap's own entries (the
// push may move them).
template <class T, class Compare>
[[gnu::always_inline]] inline void push_event(std::vector<T>& heap, const T& v, Compare later) {
    size_t hole = heap.size();
    heap.emplace_back();
    while (hole > 0) {
        const size_t parent = (hole - 1) / kEventArity;
        if (!later(heap[parent], v)) break;
        heap[hole] = heap[parent];
        hole = parent;
    }
    heap[hole].set_from(v);  // written once, where it goes, field by field
}

template <class T, class Compare>
void pop_event(std::vector<T>& heap, Compare later) {
    const T v = heap.back();
    heap.pop_back();
    const size_t n = heap.size();
    if (n == 0) return;
    size_t hole = 0;
    for (;;) {
        const size_t first = hole * kEventArity + 1;
        if (first >= n) break;
        size_t best = first;
        for (size_t c = first + 1; c < std::min(first + kEventArity, n); ++c)
            if (later(heap[best], heap[c])) best = c;
        if (!later(v, heap[best])) break;
        heap[hole] = heap[best];
        hole = best;
    }
    heap[hole] = v;
}

}  // namespace

// ---- the event queues ----

void Kernel::reset_queues(size_t count) {
    queue_count_ = count;
    leaves_ = std::bit_ceil(count);
    queues_.assign(leaves_, Queue{});
    node_next_at_.assign(leaves_, Time::max());
    win_.assign(2 * leaves_, 0);
    for (size_t i = 0; i < leaves_; ++i) win_[leaves_ + i] = uint32_t(i);
    for (size_t p = leaves_ - 1; p >= 1; --p) win_[p] = win_[2 * p];  // all empty: any
}

// Inline: every event passes here (schedule_at, schedule_in_lane's heap path, a flush).
[[gnu::always_inline]] inline void Kernel::enqueue(size_t i, const Entry& e) {
    Queue& q = queues_[i];
    const bool empty = q.top.slot == UINT32_MAX;
    if (!empty && !later(q.top, e)) {
        push_event(q.rest, e, Later{});
        return;
    }
    if (!empty) push_event(q.rest, q.top, Later{});
    q.top.set_from(e);
    set_node_next(i, e.time);
    tree_earlier(i);
}

// Whether queue a's first event comes before queue b's: by their times where they differ
// (dense, in node_next_at_), else by their keys. Two empty queues (most of a small
// system's leaves) tie at never: a, without comparing their keys field by field.
inline bool Kernel::before(uint32_t a, uint32_t b) const {
    const Time ta = node_next_at_[a], tb = node_next_at_[b];
    if (ta != tb) return ta < tb;
    if (ta == Time::max() && queues_[b].top.slot == UINT32_MAX) return true;
    return !later(queues_[a].top, queues_[b].top);
}

// Up from queue i's leaf while its top wins: above an entry another queue still wins, nothing changes.
inline void Kernel::tree_earlier(size_t i) {
    for (size_t p = (leaves_ + i) >> 1; p >= 1; p >>= 1) {
        const uint32_t w = win_[p];
        if (w != i && before(w, uint32_t(i))) return;
        win_[p] = uint32_t(i);
    }
}

// Up from queue i's leaf, each entry the first of its two: above one that neither was
// nor is queue i's, nothing changes.
void Kernel::tree_later(size_t i) {
    for (size_t p = (leaves_ + i) >> 1; p >= 1; p >>= 1) {
        const uint32_t a = win_[2 * p], b = win_[2 * p + 1];
        const uint32_t w = before(a, b) ? a : b;
        if (w == win_[p] && w != i) return;
        win_[p] = w;
    }
}

// The rest's first live entry up in place of queue i's top, and its time noted where the
// tree and the node bounds read it.
void Kernel::next_top(size_t i) {
    Queue& q = queues_[i];
    for (;;) {
        if (q.rest.empty()) {
            q.top = kNoEntry;
            break;
        }
        q.top.set_from(q.rest.front());
        pop_event(q.rest, Later{});
        if (q.stale == 0 || slots_[q.top.slot].generation == q.top.generation) break;
        --q.stale;  // cancelled
    }
    set_node_next(i, q.top.time);
    tree_later(i);
}

// Both ways of scheduling end here, inlined into each: on a bulk transfer this is the
// hottest code there is (14.7 % of an 8 MB transfer as a call of its own).
[[gnu::always_inline]] inline EventId Kernel::insert(const Entry& entry, Callback cb, uint32_t owner) {
    const Time at = entry.time;
    const uint32_t node = entry.node;
    // Outside a run (a test or benchmark setting things up between runs) nothing checks:
    // that is input from outside the model, at the time the run stopped.
    if (lookahead_on() && in_run_ && at < now_ + cross_node_span()) {
        if (node != context_) check_cross_node(at, owner);
        else if (firing_ && owner == node && node != kNoNode && firing_owner_ == (node | kRouterEvent)) check_router_event(at, node);
        else if (owner == (node | kRouterEvent) && owner != kNoNode && !(firing_ && firing_owner_ == owner)) check_nic_event(at, node);
    }
    const uint32_t s = alloc_slot();
    slots_[s].cb = std::move(cb);
    slots_[s].node = owner;
    const uint32_t generation = slots_[s].generation;
    enqueue(node_index(owner), Entry{at, entry.made, entry.seq, node, s, generation});
    if (at < horizon_) horizon_ = at;
    return EventId{s, slots_[s].generation};
}

void Kernel::scheduled_in_past(Time at) const {
    throw std::logic_error("event scheduled in the past: at " + std::to_string(at.ps()) + " ps, kernel at " +
                           std::to_string(floor_.ps()) + " ps");
}

void Kernel::key_in_core_run() const {
    throw std::logic_error("key_made_at in a core's run (node " + std::to_string(context_) + " at " +
                           std::to_string(now_.ps()) + " ps): only an event may key what it will make later");
}

EventId Kernel::schedule_at(Time at, Callback cb, uint32_t node) {
    check_not_past(at);
    return insert(Entry{at, now_, seq_++ | (by_core_ ? kByCore : 0), plain(node), 0, 0}, std::move(cb), node);
}

// ---- lanes ----

Kernel::Lane Kernel::new_lane() {
    lanes_.emplace_back();
    return Lane(lanes_.size() - 1);
}

void Kernel::set_lanes(bool on) {
    if (!on) flush_lanes();
    lanes_on_ = on;
}

EventId Kernel::schedule_in_lane_slow(Time at, EventKey reserved, SmallCall call, uint32_t node, Lane lane) {
    check_not_past(at);
    // In order from the back: a lane's events mostly come in the order they fire. One that
    // would pass more than a few (a network's lane with many flows in it) waits in the heap
    // instead, with the same key: where an event waits never changes when it fires.
    LaneQueue& q = lanes_[lane];
    const Entry key{at, reserved.made, reserved.seq, plain(node), 0, 0};
    size_t i = q.events.size();
    while (i > q.head && later(q.events[i - 1].key, key) && q.events.size() - i < kLaneReach) --i;
    if (i > q.head && later(q.events[i - 1].key, key)) return insert(key, Callback(call), node);
    // Room at i (no more than kLaneReach entries move), the entry then written where it
    // goes (LaneEntry::set: the store-forwarding stall it avoids was two fifths of this
    // function's time).
    q.events.emplace_back();
    LaneEntry* ev = q.events.data();
    for (size_t k = q.events.size() - 1; k > i; --k) {
        ev[k] = ev[k - 1];
        asm("" ::: "memory");  // kept a move of one entry: as a memmove call it cost more than it moved
    }
    ev[i].set(at, key.made, key.seq, node, call);
    if (i == q.head && !q.firing) post_stand_in(lane);
    return lane_id(key.seq);
}

// Inline for the common case, checked at every event a lane fires: the first is live
// and the fired ones before it are too few to trim.
inline void Kernel::drop_dead_front(LaneQueue& q) {
    if (q.head < q.events.size() && q.head < kLaneTrim && q.events[q.head].call) return;
    drop_dead_front_slow(q);
}

void Kernel::drop_dead_front_slow(LaneQueue& q) {
    while (q.head < q.events.size() && !q.events[q.head].call) ++q.head;
    if (q.head == q.events.size()) {
        q.events.clear();
        q.head = 0;
    } else if (q.head >= kLaneTrim && 2 * q.head >= q.events.size()) {  // fired ones: keep the vector short
        q.events.erase(q.events.begin(), q.events.begin() + std::ptrdiff_t(q.head));
        q.head = 0;
    }
}

// The heap entry for the lane's first event: that event's key, so it fires exactly where
// the event itself would.
void Kernel::post_stand_in(Lane lane) {
    if (lanes_[lane].stand_in.valid()) cancel(lanes_[lane].stand_in);
    LaneQueue& q = lanes_[lane];
    q.stand_in = {};
    drop_dead_front(q);
    if (q.head == q.events.size()) return;
    const Entry& f = q.events[q.head].key;
    q.stand_in = insert(Entry{f.time, f.made, f.seq, f.node, 0, 0}, [this, lane] { fire_lane(lane); }, f.slot);
}

// The stand-in fired (fire_next set the time, the node and the key, and counted it): the
// lane's first event fires, and the next ones while each is the kernel's next event and
// nothing else could come between - no core awake, the run not over or stopped.
void Kernel::fire_lane(Lane lane) {
    lanes_[lane].stand_in = {};
    lanes_[lane].firing = true;
    lane_firing_ = true;
    struct Firing {  // also when a callback throws, or the poll below (Cancelled)
        std::vector<LaneQueue>& lanes;
        Lane lane;
        bool& any;
        ~Firing() { lanes[lane].firing = any = false; }
    } firing{lanes_, lane, lane_firing_};
    for (bool first = true;; first = false) {
        LaneQueue& q = lanes_[lane];
        drop_dead_front(q);
        if (q.head == q.events.size()) return;
        // Copied: a callback may grow the lane. The first is the stand-in's: cancelling it moves the stand-in.
        const Entry e = q.events[q.head].key;
        const SmallCall call = q.events[q.head].call;
        if (!first) {
            if (stop_ || awake_count_ > 0 || e.time > until_ || later(e, first_event())) break;
            if (cancel_ && --cancel_countdown_ == 0) poll_cancel();
            ++events_fired_;
            ++lane_fired_;
            now_ = floor_ = e.time;
            context_ = e.node;
        }
        firing_owner_ = e.slot;  // the owner (LaneEntry::set)
        firing_entry_ = e;
        ++q.head;  // fired: cancelling it now finds nothing
        call();
    }
    lanes_[lane].firing = false;
    if (awake_count_ == 0) post_stand_in(lane);
}

// A core woke: the lanes' events go into their owners' queues (whose next events bound
// the cores), each with its key.
void Kernel::flush_lanes() {
    std::erase_if(flushed_, [this](const auto& f) { return slots_[f.second.slot].generation != f.second.generation; });
    for (Lane l = 0; l < lanes_.size(); ++l) {
        if (lanes_[l].stand_in.valid()) cancel(lanes_[l].stand_in);
        LaneQueue& q = lanes_[l];
        q.stand_in = {};
        for (size_t i = q.head; i < q.events.size(); ++i) {
            if (!q.events[i].call) continue;
            Entry e = q.events[i].key;
            const uint32_t owner = e.slot;
            e.slot = alloc_slot();
            e.generation = slots_[e.slot].generation;
            slots_[e.slot].cb = Callback(q.events[i].call);
            slots_[e.slot].node = owner;
            flushed_.emplace_back(e.seq, EventId{e.slot, e.generation});
            enqueue(node_index(owner), e);
            if (e.time < horizon_) horizon_ = e.time;
        }
        q.events.clear();
        q.head = 0;
    }
}

void Kernel::set_awake(Runnable* r, bool awake) {
    if (r->awake_ == awake) return;
    r->awake_ = awake;
    if (!awake) {
        --awake_count_;
    } else if (awake_count_++ == 0) {
        flush_lanes();
    }
}

EventId Kernel::schedule_reserved(Time at, EventKey key, Callback cb, uint32_t node) {
    if (at < floor_ || (at == floor_ && firing_ && later(firing_entry_, Entry{at, key.made, key.seq, plain(node), 0, 0})))
        throw std::logic_error("event with a reserved key scheduled where it would already have fired: at " +
                               std::to_string(at.ps()) + " ps, kernel at " + std::to_string(floor_.ps()) + " ps");
    return insert(Entry{at, key.made, key.seq, plain(node), 0, 0}, std::move(cb), node);
}

// A cross-node event sooner than the lookahead: harmless unless a core of its node (any
// core, for an event of no node) may already have run past it.
void Kernel::check_cross_node(Time at, uint32_t owner) const {
    const uint32_t node = plain(owner);
    // A router's event reaches the node's cores a router delay after it fires; behind a
    // shared switch (hops of 2), one of no node reaches them a lookahead after it fires.
    Time seen = at;
    if (owner != node) seen = plus(at, router_delay(node));
    else if (node == kNoNode && hops_ > 1) seen = plus(at, lookahead_);
    auto past = [&](const Runnable* r) { return r->awake_ && r->granted_ > seen; };
    bool broken = false;
    if (node < node_runnables_.size()) broken = std::any_of(node_runnables_[node].begin(), node_runnables_[node].end(), past);
    else broken = std::any_of(runnables_.begin(), runnables_.end(), past);
    if (!broken) return;
    auto name = [](uint32_t n) { return n == kNoNode ? std::string("no node") : "node " + std::to_string(n); };
    throw std::logic_error("an event of " + name(node) + " at " + std::to_string(at.ps()) + " ps scheduled from " + name(context_) +
                           " at " + std::to_string(now_.ps()) + " ps, sooner than the kernel's lookahead of " +
                           std::to_string(lookahead_.ps()) + " ps, while a core it reaches may have run past it");
}

void Kernel::cancel(EventId id) {
    if (!id.valid()) return;
    if (id.slot & kLaneId) return cancel_in_lanes(id);
    if (id.slot >= slots_.size()) return;
    Slot& slot = slots_[id.slot];
    if (slot.generation != id.generation) return;
    const uint32_t owner = slot.node, node = plain(owner);
    free_slot(id.slot);
    // Its queue's first goes now; an entry in the rest stays, counted, and is dropped when
    // it surfaces (its generation no longer matches).
    const size_t i = node_index(owner);
    Queue& q = queues_[i];
    if (q.top.slot == id.slot && q.top.generation == id.generation) next_top(i);
    else ++q.stale;
    if (!lookahead_on()) return;
    // A core waiting for this event would wait for ever: look at it again.
    release_passed(node);
}

// A lane event waiting in its lane is left with no call (its stand-in moves on if it was
// the first); one a flush moved to the heap is cancelled there; a fired one is no more.
void Kernel::cancel_in_lanes(EventId id) {
    const uint64_t seq = lane_seq(id);
    for (Lane l = 0; l < lanes_.size(); ++l) {
        LaneQueue& q = lanes_[l];
        for (size_t i = q.head; i < q.events.size(); ++i) {
            LaneEntry& e = q.events[i];
            if (e.key.seq != seq || !e.call) continue;
            e.call.clear();
            if (i == q.head && !q.firing) post_stand_in(l);
            return;
        }
    }
    for (const auto& [s, in_heap] : flushed_)
        if (s == seq) return cancel(in_heap);
}

// A router or NIC delay of one node into its table (grown on demand), and the largest so
// far, which widens the span in which cross-node events are checked.
void Kernel::set_node_delay(const char* what, std::vector<Time>& delays, Time& max, uint32_t node, Time delay) {
    if (node == kNoNode) return;
    if (node >= kRouterEvent) throw std::invalid_argument(std::string(what) + ": node " + std::to_string(node) + " is out of range");
    if (node >= delays.size()) delays.resize(size_t(node) + 1, Time{});
    delays[node] = std::max(delay, Time{});
    max = std::max(max, delays[node]);
}

void Kernel::set_router_delay(uint32_t node, Time delay) {
    set_node_delay("set_router_delay", router_delay_, router_delay_max_, node, delay);
    copy_node_settings(node);
    refresh_node_bounds(node);
}

// A router event of `node` scheduling an event of the node's NIC within the router delay:
// harmless unless a core of the node may already have run past it.
void Kernel::check_router_event(Time at, uint32_t node) const {
    if (node >= node_runnables_.size()) return;
    const bool broken = std::any_of(node_runnables_[node].begin(), node_runnables_[node].end(),
                                    [&](const Runnable* r) { return r->awake_ && r->granted_ > at; });
    if (!broken) return;
    throw std::logic_error("an event of node " + std::to_string(node) + " at " + std::to_string(at.ps()) +
                           " ps scheduled by its router's event at " + std::to_string(now_.ps()) +
                           " ps, sooner than the node's router delay of " + std::to_string(router_delay(node).ps()) +
                           " ps, while a core of the node may have run past it");
}

void Kernel::set_nic_delay(uint32_t node, Time delay) {
    set_node_delay("set_nic_delay", nic_delay_, nic_delay_max_, node, delay);
    copy_node_settings(node);
    refresh_node_bounds(node);
}

// The NIC's doing reaches the router no sooner than the NIC delay after the NIC acts, or
// after the core's clock and reach: harmless unless a core a lookahead or two away, or
// three anywhere, has run past where it then reaches it.
void Kernel::check_nic_event(Time at, uint32_t node) const {
    if (node >= two_hops_.size()) return;
    const Time acted = running_ && !firing_ ? reach_at(node, running_->local_time()) : now_;
    if (at >= plus(acted, nic_delay(node))) return;
    auto past = [&](uint32_t b, Time hops) {
        return std::any_of(node_runnables_[b].begin(), node_runnables_[b].end(),
                           [&](const Runnable* r) { return r->awake_ && r->granted_ > plus(at, hops + router_delay(b)); });
    };
    bool broken = false;
    for (uint32_t b : neighbours_[node]) broken = broken || past(b, lookahead_);
    for (uint32_t b : two_hops_[node]) broken = broken || past(b, lookahead_ + lookahead_);
    for (uint32_t b = 0; b < node_runnables_.size() && !broken; ++b) broken = b != node && past(b, lookahead_ * 3);
    if (!broken) return;
    throw std::logic_error("an event of node " + std::to_string(node) + "'s router at " + std::to_string(at.ps()) +
                           " ps scheduled by its NIC or core at " + std::to_string(acted.ps()) +
                           " ps, sooner than the node's NIC delay of " + std::to_string(nic_delay(node).ps()) +
                           " ps, while a core it reaches may have run past it");
}

void Kernel::set_lookahead(Time lookahead, uint32_t nodes, std::vector<std::vector<uint32_t>> neighbours, uint32_t hops) {
    if (in_pass_) throw std::logic_error("set_lookahead during a run");
    if (hops < 1) throw std::invalid_argument("set_lookahead: hops must be 1 or more");
    hops_ = hops;
    if (!neighbours.empty() && neighbours.size() != nodes)
        throw std::invalid_argument("set_lookahead: neighbours of " + std::to_string(neighbours.size()) + " nodes for " +
                                    std::to_string(nodes) + " nodes");
    for (const auto& list : neighbours)
        for (uint32_t b : list)
            if (b >= nodes) throw std::invalid_argument("set_lookahead: neighbour " + std::to_string(b) + " is not a node");
    lookahead_ = std::max(lookahead, Time{});
    if (!lookahead_on()) neighbours.clear();
    std::vector<std::vector<uint32_t>> two_hops(neighbours.size());
    for (uint32_t n = 0; n < neighbours.size(); ++n) {
        for (uint32_t b : neighbours[n])
            for (uint32_t c : neighbours[b])
                if (c != n && std::find(neighbours[n].begin(), neighbours[n].end(), c) == neighbours[n].end()) two_hops[n].push_back(c);
        std::sort(two_hops[n].begin(), two_hops[n].end());
        two_hops[n].erase(std::unique(two_hops[n].begin(), two_hops[n].end()), two_hops[n].end());
    }
    neighbours_ = NodeLists(neighbours);
    two_hops_ = NodeLists(two_hops);
    std::fill(clock_tree_.begin(), clock_tree_.end(), Time::max());
    // The pending events, live ones only, into the new owners' queues (below, once the
    // node bounds they set are sized).
    std::vector<std::pair<uint32_t, Entry>> pending;
    const auto live = [&](const Entry& e) { return e.slot != UINT32_MAX && slots_[e.slot].generation == e.generation; };
    for (const Queue& q : queues_) {
        if (live(q.top)) pending.emplace_back(slots_[q.top.slot].node, q.top);
        for (const Entry& e : q.rest)
            if (live(e)) pending.emplace_back(slots_[e.slot].node, e);
    }
    reset_queues(lookahead_on() ? 2 * size_t(nodes) + 1 : 1);
    bounds_.assign(lookahead_on() ? nodes : 0, NodeBounds{});
    at_router_.assign(neighbours_.empty() ? 0 : nodes, Time::max());
    for (uint32_t n = 0; n < bounds_.size(); ++n) copy_node_settings(n);
    node_wait_.assign(lookahead_on() ? nodes : 0, {});
    node_runnables_.assign(lookahead_on() ? nodes : 0, {});
    floor_wait_.clear();
    global_wait_.clear();
    end_wait_.clear();
    for (const auto& [owner, e] : pending) enqueue(node_index(owner), e);
    // Every awake runnable is looked at afresh in the next pass.
    std::vector<Runnable*> awake;
    for (Runnable* r : runnables_) {
        r->granted_ = r->local_time();
        r->waits_ = kWaitNone;
        if (lookahead_on() && r->node_ < nodes) node_runnables_[r->node_].push_back(r);
        if (r->awake_) awake.push_back(r);
        set_awake(r, false);
        r->parked_ = false;
    }
    parked_.clear();
    ready_.clear();
    for (Runnable* r : awake) wake(r);
}

void Kernel::set_reach(uint32_t node, Time extra) {
    if (node == kNoNode) return;
    if (node >= reach_.size()) reach_.resize(size_t(node) + 1, Time{});
    extra = std::max(extra, Time{});
    if (reach_[node] == extra) return;
    reach_[node] = extra;
    reach_max_ = std::max(reach_max_, extra);
    copy_node_settings(node);
    if (!reach_hints_ || !lookahead_on() || node >= node_runnables_.size()) return;
    // Its awake cores' entries in the clocks take the new reach at once: a lower one before
    // anything that relies on it can happen (the running core gets its entry after its run).
    for (Runnable* r : node_runnables_[node])
        if (r->awake_ && r != running_) note_clock(r, r->local_time());
}

void Kernel::set_reach_hints(bool on) {
    if (in_pass_) throw std::logic_error("set_reach_hints during a run");
    reach_hints_ = on;
    set_lookahead(lookahead_, uint32_t(node_wait_.size()), neighbours_.vectors());  // the clocks again, with or without
}

void Kernel::set_runnable_node(Runnable* r, uint32_t node) {
    // A core waiting for its old node's events is looked at afresh (its wait is that node's).
    if (r->waits_ != kWaitNone || r->parked_) {
        leave_waits(r);
        make_ready(r);
    }
    if (r->node_ < node_runnables_.size()) std::erase(node_runnables_[r->node_], r);
    const uint32_t was = r->node_;
    r->node_ = node;
    if (node < node_runnables_.size()) node_runnables_[node].push_back(r);
    note_node_reach(was);
    note_node_reach(node);
}

void Kernel::add_runnable(Runnable* r) {
    r->order_ = next_order_++;
    const std::span<const std::byte> hot = r->hot_memory();
    hot_.push_back(Hot{hot.data(), hot.data() + std::min<size_t>(64 * kHotLines, hot.size())});
    runnables_.push_back(r);
    if (lookahead_on() && r->node_ < node_runnables_.size()) node_runnables_[r->node_].push_back(r);
    r->granted_ = Time{};  // it has run nowhere yet
    wake(r);
}

void Kernel::remove_runnable(Runnable* r) {
    auto drop = [r](std::vector<Runnable*>& v) { v.erase(std::remove(v.begin(), v.end(), r), v.end()); };
    drop(runnables_);
    ready_.erase(std::remove_if(ready_.begin(), ready_.end(), [r](const Ready& e) { return e.r == r; }), ready_.end());
    std::make_heap(ready_.begin(), ready_.end());
    leave_waits(r);
    if (r->node_ < node_runnables_.size()) drop(node_runnables_[r->node_]);
    set_awake(r, false);
    drop_clock(r);
    note_node_reach(r->node_);
}

// Off the list a parked or waiting runnable is on: the one its wait names (it waits for
// one thing at a time). Scanning every node's list made taking a system apart quadratic
// in its nodes (each core's removal walked them all: 42 million host instructions at
// 2,048 nodes, cachegrind).
void Kernel::leave_waits(Runnable* r) {
    auto drop_parked = [r](std::vector<Parked>& heap) {
        std::erase_if(heap, [r](const Parked& e) { return e.r == r; });
        std::make_heap(heap.begin(), heap.end());
    };
    if (r->parked_) drop_parked(parked_);
    switch (r->waits_) {
    case kWaitFloor: drop_parked(floor_wait_); break;
    case kWaitNode:
        std::erase(node_wait_[r->node_], r);
        note_node_wait(r->node_);
        break;
    case kWaitGlobal: std::erase(global_wait_, r); break;
    case kWaitEnd: std::erase(end_wait_, r); break;
    case kWaitNone: break;
    }
    r->parked_ = false;
    r->waits_ = kWaitNone;
}

// Into the ready heap, for this pass or the next: one behind the pass under way (a
// lower order than the runnable it is at) waits for the next pass, exactly as a scan
// of every runnable in registration order would reach it.
void Kernel::make_ready(Runnable* r) {
    const uint64_t pass = !in_pass_ || (driving_ && r->order_ <= cursor_) ? pass_ + 1 : pass_;
    ready_.push_back(Ready{pass, r->order_, r});
    std::push_heap(ready_.begin(), ready_.end());
}

void Kernel::wake(Runnable* r) {
    if (lookahead_on()) {
        if (r->awake_ && (r->waits_ == kWaitNone || r->local_time() == r->parked_at_)) return;
        if (r->waits_ != kWaitNone) leave_waits(r);  // its local time changed while parked (a reset)
        set_awake(r, true);
        note_clock(r, r->local_time());
        make_ready(r);
        return;
    }
    if (r->awake_ && (!r->parked_ || r->local_time() == r->parked_at_)) return;
    if (r->parked_) leave_waits(r);  // its local time changed while parked (a reset)
    set_awake(r, true);
    make_ready(r);
}

void Kernel::park(Runnable* r) {
    r->parked_ = true;
    r->parked_at_ = r->local_time();
    parked_.push_back(Parked{r->parked_at_, r->order_, r});
    std::push_heap(parked_.begin(), parked_.end());
}

// The runnables of `heap` parked before `t` become ready again: the parked ones once
// the horizon passes them, with lookahead those waiting for the earliest time.
void Kernel::unpark(std::vector<Parked>& heap, Time t) {
    while (!heap.empty() && heap.front().at < t) {
        Runnable* r = heap.front().r;
        std::pop_heap(heap.begin(), heap.end());
        heap.pop_back();
        r->parked_ = false;
        r->waits_ = kWaitNone;
        make_ready(r);
    }
}

// ---- lookahead ----

void Kernel::set_clock(uint64_t order, Time at) {
    if (order >= clock_leaves_) {  // more leaves: the old ones move, the inner entries are made again
        // As many leaves as runnables, rounded up: each update walks the tree's height
        // (two cores: one level, not six; 5 % of a round trip's host time at 64 leaves).
        const size_t leaves = std::max<size_t>(2, std::bit_ceil(order + 1));
        std::vector<Time> tree(2 * leaves, Time::max());
        std::copy_n(clock_tree_.begin() + std::ptrdiff_t(clock_leaves_), clock_leaves_, tree.begin() + std::ptrdiff_t(leaves));
        for (size_t i = leaves - 1; i >= 1; --i) tree[i] = std::min(tree[2 * i], tree[2 * i + 1]);
        clock_tree_ = std::move(tree);
        clock_leaves_ = leaves;
    }
    size_t i = clock_leaves_ + order;
    if (clock_tree_[i] == at) return;
    clock_tree_[i] = at;
    // Up the path while the least changes: above an entry that kept its value nothing does.
    for (i >>= 1; i >= 1; i >>= 1) {
        const Time least = std::min(clock_tree_[2 * i], clock_tree_[2 * i + 1]);
        if (clock_tree_[i] == least) break;
        clock_tree_[i] = least;
    }
}

// The earliest an awake runnable's doings can reach another node, less the lookahead.
Time Kernel::reach_at(uint32_t node, Time t) const {
    return plus(t, node < bounds_.size() ? bounds_[node].reach : reach_set(node));
}

// A node's settings into its bounds, where the hot paths read them.
void Kernel::copy_node_settings(uint32_t node) {
    if (node >= bounds_.size()) return;
    NodeBounds& b = bounds_[node];
    b.router_delay = router_delay_set(node);
    b.nic_delay = nic_delay_set(node);
    b.reach = reach_set(node);
}

// Where an awake runnable's clock stands (its local time t), for earliest(), and its
// node's least clock: for the node's only core, that one.
void Kernel::note_clock(Runnable* r, Time t) {
    const Time at = reach_at(r->node_, t);
    set_clock(r->order_, at);
    if (r->node_ < bounds_.size() && node_runnables_[r->node_].size() == 1) set_node_reach(r->node_, at);
    else note_node_reach(r->node_);
}

void Kernel::note_node_reach(uint32_t node) {
    if (node >= bounds_.size()) return;
    Time least = Time::max();
    for (const Runnable* o : node_runnables_[node])
        if (o->awake_ && o != running_) least = std::min(least, reach_at(node, o->local_time()));
    set_node_reach(node, least);
}

// The inputs of a node's own bound and at_router_, each set here (and its delays in
// set_router_delay and set_nic_delay) and nowhere else.
inline void Kernel::set_node_next(size_t i, Time t) {
    node_next_at_[i] = t;
    refresh_node_bounds(i / 2);  // the index of no node's queue, the last, is past every node's
}

inline void Kernel::set_node_reach(uint32_t node, Time t) {
    bounds_[node].reach_at = t;
    refresh_node_bounds(node);
}

inline void Kernel::refresh_node_bounds(uint32_t b) {
    if (b >= bounds_.size()) return;
    const Time nic = node_next_at_[2 * size_t(b)], router = node_next_at_[2 * size_t(b) + 1];
    NodeBounds& n = bounds_[b];
    n.own = std::min(nic, plus(router, n.router_delay));
    if (b >= at_router_.size()) return;
    at_router_[b] = std::min(plus(std::min(nic, n.reach_at), n.nic_delay), router);
}

Time Kernel::far_bound(const Runnable* r, Time cap) {
    const Time e = earliest();  // without r's own clock (see drive_runnables)
    if (neighbours_.empty()) return plus(e, node_runnables_[r->node_].size() > 1 ? lookahead_ : lookahead_ * hops_);
    // The neighbours (and r's node's other cores, as without neighbours) reach r's node
    // over one cable at least, their neighbours over two, every other node over three. A
    // neighbour's asleep core is woken by its node's events, which bound it.
    // The least of what reaches it in one lookahead, then the lookahead added once (plus
    // saturates, so adding it to the least is adding it to each); the same two hops on.
    // Another node's doings reach r through its node's router, so a router delay later.
    Time one = Time::max();
    if (const auto& mine = node_runnables_[r->node_]; mine.size() > 1)
        for (const Runnable* o : mine)
            if (o != r && o->awake_) one = std::min(one, reach_at(o->node_, o->local_time()));
    Time far = Time::max(), farther = Time::max();
    for (uint32_t b : neighbours_[r->node_]) far = std::min(far, at_router_[b]);  // b is a node
    const Time d = router_delay(r->node_);
    const Time near = std::min({plus(e, lookahead_ * 3 + d), plus(one, lookahead_), plus(far, lookahead_ + d)});
    // Two hops on nothing comes sooner than the earliest time plus two lookaheads: at or
    // below that, the scan of some eighteen nodes (a 3-D mesh) changes nothing.
    if (std::min(near, cap) <= plus(e, lookahead_ + lookahead_ + d)) return near;
    for (uint32_t b : two_hops_[r->node_]) farther = std::min(farther, at_router_[b]);
    return std::min(near, plus(farther, lookahead_ + lookahead_ + d));
}

Time Kernel::horizon_of(const Runnable* r, Time until) {
    run_far_known_ = false;
    if (r->node_ >= node_wait_.size()) return std::min(until, next_event_time());
    const Time own = own_bound(r->node_), none = node_next(kNoNode);
    const Time cap = std::min({until, own, none});
    hold_ = cap == until ? Hold::End : cap == own ? Hold::Node : Hold::NoNode;
    // The far bound is never below the earliest time plus a lookahead: its scan of the
    // neighbours matters only when that is below the node's own bounds (a halo's cores
    // are mostly held by their own node's events: the scan cost a tenth of a 512-node run).
    // (With neighbours named and no other core on its node, a router delay more.)
    const Time d = neighbours_.empty() || node_runnables_[r->node_].size() > 1 ? Time{} : router_delay(r->node_);
    if (plus(earliest(), lookahead_ + d) >= cap) return cap;
    run_far_ = far_bound(r, cap);
    run_far_known_ = true;
    if (run_far_ < cap)  // below the earliest time's bound, a neighbour's held it
        hold_ = !neighbours_.empty() && run_far_ < plus(earliest(), lookahead_ * 3 + d) ? Hold::Neighbours : Hold::Earliest;
    return std::min(cap, run_far_);
}

// Runnable r stopped at or past its horizon: it waits for whichever bound holds it.
// One of no node waits as without lookahead, for the horizon to pass it.
void Kernel::park_lookahead(Runnable* r, Time until, Time t) {
    if (r->node_ >= node_wait_.size()) return park(r);
    r->parked_at_ = t;
    if (t >= until) {
        r->waits_ = kWaitEnd;
        end_wait_.push_back(r);
    } else if (node_next(kNoNode) <= t) {
        r->waits_ = kWaitGlobal;
        global_wait_.push_back(r);
    } else if (own_bound(r->node_) <= t) {
        r->waits_ = kWaitNode;
        node_wait_[r->node_].push_back(r);
        bounds_[r->node_].wait_at = std::min(bounds_[r->node_].wait_at, t);
    } else if (plus(earliest(), lookahead_) <= t && (run_far_known_ ? run_far_ : far_bound(r, Time::max())) <= t) {
        // Looked at again once the earliest time has come within a picosecond of it:
        // its next run covers nearly the whole lookahead (a margin of half of it, and
        // runs of half, took 1.09x the time on a 512-node halo), or more with neighbours
        // named (every neighbour is then at the earliest time or later). Above zero: the
        // earliest core would otherwise wait for itself to pass. The far bound is the one
        // its run had: while it ran only its own node moved on (a far bound gone up since,
        // by a cancelled event, holds it back a little longer, no more).
        r->waits_ = kWaitFloor;
        floor_wait_.push_back(Parked{t - Time::ps(1), r->order_, r});
        std::push_heap(floor_wait_.begin(), floor_wait_.end());
    } else {
        make_ready(r);  // the earliest time moved on while it ran (it was the earliest): again
    }
}

void Kernel::release(std::vector<Runnable*>& waiting) {
    for (Runnable* r : waiting) {
        r->waits_ = kWaitNone;
        make_ready(r);
    }
    waiting.clear();
}

// The cores waiting for `node`'s next event (or for one of no node) that it no longer
// holds. One whose clock is still at or past the node's next event - its node's events
// come in bursts, one scheduling the next - would only be looked at and parked again:
// a fifth of a halo's visits to its cores did nothing else.
void Kernel::release_passed(uint32_t node) {
    const bool own = node < node_wait_.size();
    const Time next = own ? own_bound(node) : node_next(kNoNode);
    std::vector<Runnable*>& waiting = own ? node_wait_[node] : global_wait_;
    size_t kept = 0;
    for (Runnable* r : waiting) {
        if (next <= r->parked_at_) {
            waiting[kept++] = r;
            continue;
        }
        r->waits_ = kWaitNone;
        make_ready(r);
    }
    waiting.resize(kept);
    if (own) {
        if (kept == 0) bounds_[node].wait_at = Time::max();
        else note_node_wait(node);
    }
}

void Kernel::note_node_wait(uint32_t node) {
    Time least = Time::max();
    for (const Runnable* r : node_wait_[node]) least = std::min(least, r->parked_at_);
    bounds_[node].wait_at = least;
}

// One pass over the awake runnables in registration order, each run up to the horizon
// as it stands when its turn comes; the ones found asleep leave, the ones at or past
// the horizon are parked until it passes them. The horizon can move during a pass (a
// runnable schedules an earlier event, or cancels the next one), so the parked ones are
// looked at before every step, as the scan of every runnable would have.
void Kernel::drive_runnables(Time horizon) {
    if (ready_.empty() && !renumber_ && parked_.empty() && floor_wait_.empty() && end_wait_.empty()) {
        // No core is awake but those waiting for an event (a bulk transfer's, both asleep):
        // a pass would set the horizon and find nothing to run. Pass numbers only order
        // ready entries, and there are none.
        horizon_ = std::min(horizon, next_event_time());
        return;
    }
    ++pass_;
    if (renumber_) {  // a stopped pass's leftovers and the next pass's: all in this one
        for (Ready& e : ready_) e.pass = pass_;
        std::make_heap(ready_.begin(), ready_.end());
        renumber_ = false;
    }
    in_pass_ = true;
    const bool ahead = lookahead_on();
    if (ahead) release(end_wait_);  // a new run: the end no longer holds them
    for (;;) {
        horizon_ = std::min(horizon, next_event_time());
        if (stop_) {
            renumber_ = !ready_.empty();
            break;
        }
        if (!parked_.empty()) unpark(parked_, horizon_);  // with lookahead: the runnables of no node
        if (ahead && !floor_wait_.empty()) unpark(floor_wait_, earliest());
        // With lookahead every ready core runs before the next event fires (one let go in
        // mid-pass may lag behind it); without, the next pass's wait for the next step.
        if (ready_.empty() || (!ahead && ready_.front().pass != pass_)) break;
        Runnable* r = ready_.front().r;
        std::pop_heap(ready_.begin(), ready_.end());
        ready_.pop_back();
        if (!ready_.empty()) prefetch(ready_.front().order);  // most likely the next to run
        driving_ = true;
        cursor_ = r->order_;
        ++visits_;
        if (ahead) {
            // Its own clock bounds nothing: what it does reaches another node a lookahead
            // later, and comes back later still, and its own node's events bound it. So
            // its entry in the clocks goes (a fresh one comes after the run), or a core
            // running alone would go a lookahead at a time.
            drop_clock(r);
            horizon_ = horizon_of(r, horizon);
        }
        r->granted_ = horizon_;
        if (r->active() && r->local_time() < horizon_) {
            context_ = r->node_;
            by_core_ = true;
            running_ = r;
            ++runs_;
            if (ahead) ++held_[size_t(hold_)];
            r->run(*this);
            running_ = nullptr;
            context_ = kNoNode;
            by_core_ = false;
            // It stopped at the horizon as it stood at the end: lowered by what it scheduled
            // itself, it went no further (the check of cross-node events reads this).
            r->granted_ = std::min(r->granted_, horizon_);
        }
        if (!r->active()) {
            set_awake(r, false);
            drop_clock(r);
            r->granted_ = std::min(r->granted_, r->local_time());  // it went no further
            note_node_reach(r->node_);
        } else {
            const Time t = r->local_time();
            if (t >= horizon_) {
                if (ahead) park_lookahead(r, horizon, t);  // by the earliest time without its own clock
                else park(r);
            } else {  // stopped short (a stop request): the next pass
                ready_.push_back(Ready{pass_ + 1, r->order_, r});
                std::push_heap(ready_.begin(), ready_.end());
            }
            if (ahead) note_clock(r, t);
        }
    }
    in_pass_ = driving_ = false;
}

bool Kernel::fire_next(Time until) {
    const Entry e = first_event();
    if (queue_empty() || e.time > until) return false;
    const size_t i = win_[1];
    Slot& slot = slots_[e.slot];
    now_ = floor_ = e.time;
    const uint32_t owner = slot.node, node = plain(owner);
    Callback cb = std::move(slot.cb);
    free_slot(e.slot);
    next_top(i);
    ++events_fired_;
    if (lookahead_on()) {
        // The cores its node's next event held may go on (all of them, for an event of none).
        // Not when its node's next event holds every one (or none waits): one dense read.
        if (node >= node_wait_.size() || own_bound(node) > bounds_[node].wait_at) release_passed(node);
    }
    context_ = node;
    firing_owner_ = owner;
    firing_ = true;
    firing_entry_ = e;
    cb();
    firing_ = false;
    context_ = kNoNode;
    return true;
}

bool Kernel::fire_inline(Time at, uint32_t node) {
    if (!fire_inline_on_ || !firing_ || by_core_ || stop_ || awake_count_ > 0 || lane_firing_ || at > until_ || at < now_)
        return false;
    const Entry e{at, now_, seq_, plain(node), 0, 0};
    if (!queue_empty() && !later(first_event(), e)) return false;
    if (cancel_) {  // run_until's poll, once an event
        if (cancel_countdown_ <= 1) return false;
        --cancel_countdown_;
    }
    // What schedule_at and then fire_next would have done, but the heap.
    ++seq_;
    ++events_fired_;
    ++inline_fired_;
    now_ = floor_ = at;
    context_ = plain(node);
    firing_owner_ = node;
    firing_entry_ = e;
    return true;
}

bool Kernel::runnable_behind(Time t) const {
    const auto behind = [t](const auto& e) { return e.r->active() && e.r->local_time() < t; };
    const auto behind_r = [t](const Runnable* r) { return r->active() && r->local_time() < t; };
    bool any = std::any_of(ready_.begin(), ready_.end(), behind) || std::any_of(parked_.begin(), parked_.end(), behind) ||
               std::any_of(floor_wait_.begin(), floor_wait_.end(), behind) ||
               std::any_of(global_wait_.begin(), global_wait_.end(), behind_r) ||
               std::any_of(end_wait_.begin(), end_wait_.end(), behind_r);
    for (const auto& v : node_wait_) any = any || std::any_of(v.begin(), v.end(), behind_r);
    return any;
}

Time Kernel::latest_activity() const {
    Time t = std::max(floor_, activity_until_);
    for (const Runnable* r : runnables_) t = std::max(t, r->local_time());
    return t;
}

void Kernel::poll_cancel() {
    cancel_countdown_ = kCancelPoll;
    if (cancel_->load(std::memory_order_relaxed))
        throw Cancelled("cancelled at " + std::to_string(now_.as_us()) + " us of simulated time");
}

Time Kernel::run_until(Time until, bool stop_when_idle) {
    stop_ = false;
    until_ = until;
    struct InRun {
        bool& flag;
        explicit InRun(bool& f) : flag(f) { flag = true; }
        ~InRun() { flag = false; }
    } in_run(in_run_);
    while (!stop_) {
        if (cancel_ && --cancel_countdown_ == 0) poll_cancel();
        drive_runnables(until);
        if (stop_) break;
        if (fire_next(until)) continue;
        // No event is due before `until`; finished once every active runnable got there
        // (one may have stopped short at a horizon that a cancelled event had set).
        if (!runnable_behind(until)) break;
    }
    if (!stop_) {
        bool idle = queue_empty() && !runnable_behind(Time::max()) && activity_until_ <= until;
        // A runnable may have ended a little past the horizon (a multi-cycle instruction);
        // global time never goes backwards for the caller.
        Time end = (stop_when_idle && idle) ? latest_activity() : std::max(floor_, until);
        now_ = floor_ = std::max(floor_, end);
    }
    horizon_ = now_;
    return now_;
}

}  // namespace niclab::sim
