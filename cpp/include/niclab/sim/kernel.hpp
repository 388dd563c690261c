#pragma once
// The discrete-event kernel. Events are ordered by (time, insertion sequence), so
// two events at the same picosecond always fire in the order they were scheduled
// and runs are deterministic. Scheduling allocates nothing once the pools have
// grown to the working-set size: callbacks live inline in a slot pool.
//
// Besides events, the kernel drives Runnables (NIC cores): instruction-set
// simulators that run ahead of global time, but only up to the next scheduled
// event (the horizon). A runnable that schedules an earlier event shrinks the
// horizon, so it stops in time to let that event fire (temporal decoupling as in
// SystemC TLM's loosely-timed style). Only awake runnables that are behind the horizon
// are visited: one that goes to sleep (wfi, halt, reset) leaves the list until it is
// woken, and one that stopped at or past the horizon (a core ends a little past it, or
// far past it after a long stall) is parked by its local time until the horizon
// reaches it. A pass therefore costs what the runnables that actually run cost, not a
// visit to every core per event, and runs exactly the steps a scan of every runnable
// in registration order would.
//
// Lookahead (set_lookahead): events carry the node they belong to (their scheduler's
// node by default: the node of the event or core that scheduled them), and a model
// whose nodes affect one another only through delays of at least L (net::Network::
// lookahead) lets each node's core run past other nodes' events: to its own node's next
// event, the next event of no node, or the earliest time anything can still happen (the
// next event, or the earliest awake core's clock plus its node's reach, set_reach) plus
// L, whichever is first. Nothing another
// node does can reach it sooner. A model that names each node's neighbours (the nodes
// it has a cable to, set_lookahead) lets cores run further: what a node k cables away
// does crosses k cables, so the neighbours' own next events and clocks (plus their
// reach) plus L bound it, their neighbours' plus 2L, and the earliest time plus 3L the
// rest. One laggard then holds back its neighbours by L, theirs by 2L and everyone else
// by 3L (a 512-node halo of puts: 9 % faster with neighbours; at 2,048 nodes no faster,
// the cores there being held by their own node's events; the third lookahead then cut
// its runs by 3 %). A node whose router's events are marked as such
// (kRouterEvent, set_router_delay) lets its core run a router delay past them, and past
// everything the other nodes do, which reaches it through that router (a halo of puts on
// SeaStars: a third fewer core runs). It is also exact where stopping at every event is not:
// there, a core run to the next event early in a pass can pass an event another core,
// later in the same pass, schedules for its node (system::SystemSpec::lookahead).
// Events of one time are ordered by the time they were scheduled at, then by whether a
// core scheduled them (after those an event scheduled), then by node, then by sequence,
// in both modes; an event given a key reserved earlier (reserve_key) sorts as if it had
// been scheduled then, and one keyed as made later (key_made_at) as if made then, before
// everything else made then. A cross-node event scheduled inside the lookahead or a reach (a model
// breaking its promise) is a logic_error naming both nodes, when a core it reaches may
// already have run past it.
//
// Lanes (set_lanes, on by default): a model's stream of events that mostly come in the
// order they fire - a network's cable wake-ups and packet arrivals and its NICs' transmit
// pumps: a bulk transfer's packet train - may be scheduled into a lane. While no core is awake, a lane keeps its events apart from the heap, in order, and
// one entry in the heap stands for its next event with that event's key. When it fires,
// the lane's following events fire straight from the lane for as long as each comes
// before the heap's next event and within the run: the same events, at the same times, in
// the same order, each counted as fired, without a heap entry apiece (an 8 MB transfer
// spent two fifths of its host time on the heap); its callable waits in its entry (a
// sim::SmallCall: 16 bytes of captures at most; a larger one waits in the heap), so it is
// written once and called from there. Cores read the heap for their horizons,
// so a core waking puts every lane's events back into it, and while any core is awake
// lane events go to the heap as any other.
#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "niclab/sim/error.hpp"
#include "niclab/sim/inplace_function.hpp"
#include "niclab/sim/node_lists.hpp"
#include "niclab/sim/small_call.hpp"
#include "niclab/sim/time.hpp"

namespace niclab::sim {

class ActivityLog;

// 40 bytes of captures: with its call and manage pointers 56, so that a Kernel slot is one
// cache line (Kernel::Slot).
using Callback = InplaceFunction<40>;

// The node of an event or runnable that belongs to none (global: every core stops at it).
inline constexpr uint32_t kNoNode = UINT32_MAX;

// A run stopped because its cancel flag was set (Kernel::set_cancel): the simulation
// is left mid-step and must be discarded, not resumed.
class Cancelled : public Error {
public:
    using Error::Error;
};

struct EventId {
    uint32_t slot = UINT32_MAX;
    uint32_t generation = 0;
    bool valid() const { return slot != UINT32_MAX; }
};

class Kernel;

// Something that executes on its own local clock between events.
class Runnable {
public:
    virtual ~Runnable() = default;
    // Local time of this runnable; it wants to run while this is below the horizon.
    virtual Time local_time() const = 0;
    // False while asleep (halted, in wfi with nothing pending, held in reset). Whatever
    // makes it true again must call Kernel::wake: asleep runnables are not polled.
    virtual bool active() const = 0;
    // Execute until local_time() >= kernel.horizon() or until it goes inactive.
    virtual void run(Kernel& kernel) = 0;

    // The node it belongs to (Kernel::set_runnable_node; kNoNode: none).
    uint32_t node() const { return node_; }
    // The memory a run starts by reading (a core's own object): the kernel prefetches it
    // while the runnable before this one runs. On a large system every run finds its
    // core's state out of the host's caches. Taken once, when the runnable is added.
    virtual std::span<const std::byte> hot_memory() const { return {}; }

private:
    friend class Kernel;
    uint64_t order_ = 0;   // registration order: runnables are driven in it
    bool awake_ = false;   // ready or parked (not asleep)
    bool parked_ = false;  // waiting in the parked heap for the horizon to pass parked_at_
    Time parked_at_{};     // parked: its local time then
    uint32_t node_ = kNoNode;
    Time granted_{};       // lookahead: the horizon of its last run (it started nothing at or past it)
    uint8_t waits_ = 0;    // lookahead: what it is parked for (Kernel::Wait)
};

class Kernel {
public:
    Kernel();

    Time now() const { return now_; }
    // The time the running runnable must not pass (the next event, or the end of the run).
    Time horizon() const { return horizon_; }

    // An event of the scheduler's node (the event or core running), or of `node`.
    EventId schedule_at(Time at, Callback cb) { return schedule_at(at, std::move(cb), context_); }
    EventId schedule_at(Time at, Callback cb, uint32_t node);
    EventId schedule_in(Time delay, Callback cb) { return schedule_at(now_ + delay, std::move(cb)); }
    EventId schedule_in(Time delay, Callback cb, uint32_t node) { return schedule_at(now_ + delay, std::move(cb), node); }
    // Lanes (see above): kNoLane is the heap itself. An event of a lane is scheduled,
    // cancelled and fires as any other; only where it waits differs.
    using Lane = uint32_t;
    static constexpr Lane kNoLane = UINT32_MAX;
    Lane new_lane();
    // A lane keeps a callable that fits a SmallCall in the event's own entry; a larger one
    // waits in the heap (where an event waits never changes when it fires).
    template <typename F>
    EventId schedule_at(Time at, F&& f, uint32_t node, Lane lane) {
        // A running core is awake, so an event a core schedules never waits in a lane.
        if constexpr (SmallCall::fits<F>)
            if (lane != kNoLane && lanes_on_ && awake_count_ == 0) return schedule_in_lane(at, SmallCall(f), node, lane);
        return schedule_at(at, Callback(std::forward<F>(f)), node);
    }
    // Off: every event goes through the heap (to compare; nothing else changes).
    void set_lanes(bool on);
    bool lanes() const { return lanes_on_; }
    // Events fired straight from a lane (counted in events_fired() too): the heap entries saved.
    uint64_t lane_events_fired() const { return lane_fired_; }
    // A place in the order of events, taken now for an event that may be scheduled later
    // or never (net::Network's credit returns): scheduled with schedule_reserved, it fires
    // exactly where it would have had it been scheduled now, among the events of its time.
    struct EventKey {
        Time made;
        uint64_t seq;  // with kByCore
    };
    EventKey reserve_key() { return EventKey{now_, seq_++ | (by_core_ ? kByCore : 0)}; }
    EventId schedule_reserved(Time at, EventKey key, Callback cb, uint32_t node);
    // The same into a lane (where an event waits never changes when it fires).
    template <typename F>
    EventId schedule_reserved(Time at, EventKey key, F&& f, uint32_t node, Lane lane) {
        if constexpr (SmallCall::fits<F>)
            if (lane != kNoLane && lanes_on_ && awake_count_ == 0) return schedule_in_lane(at, key, SmallCall(f), node, lane);
        return schedule_reserved(at, key, Callback(std::forward<F>(f)), node);
    }
    // The key of an event that an event at `made` (now or later) would make, placed before
    // every other event made then: for a model that knows now what it will do at `made`
    // (net::Network sending a packet on a busy cable when it frees). Only an event may
    // take one (in_core_run() false): a core's place among events made later would depend
    // on how far cores ran ahead.
    EventKey key_made_at(Time made) {
        if (by_core_) [[unlikely]] key_in_core_run();
        return EventKey{std::max(made, now_), seq_++};
    }
    bool in_core_run() const { return by_core_; }
    // The event of `node` at `at` that the firing event's callback would schedule now and
    // then wait for, doing nothing more until it fires (a host process's compute burst,
    // host::HostCpu; the arbitration a DMA burst's event asks for last, bus::PciBus):
    // when nothing can come before it - it would be the next event, no core is awake, no
    // lane is firing, the run goes that far and is not stopping - it
    // fires here instead, with the time, key and counts its event would have had, and the
    // caller goes on as its callback would. False: something may come first, and the
    // caller schedules it. Only inside an event.
    bool fire_inline(Time at, uint32_t node);
    // An event its scheduler did not schedule, having done its work itself where it would
    // have fired: right next to an event fire_inline has just fired, at its time, with
    // nothing between the two and neither able to tell which came first (bus::PciBus: a
    // PIO read's arbitration, next to the end of the CPU's stall up to it). Counted as
    // scheduled and fired, as fire_inline counts.
    void fired_in_place() {
        ++seq_;
        ++events_fired_;
        ++inline_fired_;
    }
    // Off: fire_inline always says false (to compare: the same events at the same times).
    void set_fire_inline(bool on) { fire_inline_on_ = on; }
    // Events fired by fire_inline (counted in events_fired() too).
    uint64_t inline_events_fired() const { return inline_fired_; }
    // Whether an event of `node` at `at` with `key` would have fired by now: it is earlier,
    // or of now and ordered before the event firing. For reads made in events (a core's run
    // stops at its node's events, which are no longer there to stop it).
    bool passed(Time at, EventKey key, uint32_t node) const {
        if (at != now_) return at < now_;
        return !firing_ || later(firing_entry_, Entry{at, key.made, key.seq, plain(node), 0, 0});
    }
    // The node whose event or core is running (kNoNode outside the run, or in an event of none).
    uint32_t context() const { return context_; }
    // Cancelling a fired or already cancelled event is a harmless no-op.
    void cancel(EventId id);

    // Runnables are driven in registration order (deterministic).
    void add_runnable(Runnable* r);
    void remove_runnable(Runnable* r);
    // `r` may have become active (an interrupt woke it from wfi, its reset was
    // released): it is driven again from the next step on. Harmless if it already was.
    void wake(Runnable* r);
    void set_runnable_node(Runnable* r, uint32_t node);

    // Lookahead (see above): `lookahead` is the least delay with which one node's events
    // reach another's, for nodes 0..nodes-1. Zero turns it off (every core stops at every
    // event). Set before the run, or between runs. `neighbours` (empty: none named), for
    // each node the nodes whose events reach it in one lookahead; every other node's
    // then reach it in two at the soonest, and nothing may be of no node but events the
    // cores stop at anyway (a model with a part of no node, such as a shared switch,
    // names none: such a part's events reach every node a lookahead after they fire).
    // Without neighbours, `hops` is the fewest lookaheads one node's doings take to reach
    // another node: 2 behind a shared switch of no node (a cable to it, one from it; the
    // cores stop at its events), so a core runs up to the earliest time plus two
    // lookaheads rather than one (a core of a node with several, one).
    void set_lookahead(Time lookahead, uint32_t nodes, std::vector<std::vector<uint32_t>> neighbours = {},
                       uint32_t hops = 1);
    Time lookahead() const { return lookahead_; }
    // Reach: what a running core does reaches another node no sooner than the lookahead
    // plus `extra` after its local time, for as long as the model says so; the other
    // nodes' cores may then run that much further past it. A model sets it when the bound
    // starts to hold and lowers it before anything that breaks it can happen (SeaStar:
    // its transmit path reads host memory before the first packet leaves, while its NIC
    // holds back no packet from the network, seastar::RxDma). Nothing changes what
    // happens, only where cores stop; events and asleep cores reach a lookahead away as
    // before. Zero (the default) for every node without one; set_reach_hints(false)
    // ignores them all (to compare: the times must not move).
    void set_reach(uint32_t node, Time extra);
    void set_reach_hints(bool on);
    // Router events: an event scheduled for `node | kRouterEvent` is an event of the node's
    // router (its part of the network), ordered as an event of `node` (the same key), but
    // one that changes nothing the node's cores can see sooner than the node's router delay
    // after it fires (set_router_delay): what it does reaches the NIC over a cable. With
    // neighbours named, everything another node does reaches a core through its router, so
    // the core may run that much further past other nodes' events and its own router's.
    // A router event scheduling an event of its own node's NIC sooner than that, while a
    // core of the node may have run past it, is a logic_error, as a cross-node event inside
    // the lookahead is. A model sets a delay only where its cores see nothing of the
    // router's state directly (SeaStar: its core reaches the network through its DMA
    // engines' events); zero (the default) keeps router events as any other. Nodes are
    // numbered below the flag.
    static constexpr uint32_t kRouterEvent = 1u << 30;
    void set_router_delay(uint32_t node, Time delay);
    // The other way: nothing the node's NIC or cores do (its events of no router, its
    // cores past their reach) changes its router's state sooner than its NIC delay: what
    // they send reaches the router over a cable. With neighbours named, the other nodes'
    // cores then run that much further past the node's NIC events and cores. A router
    // event of the node scheduled from them sooner than that, once a core it reaches may
    // have run past what it can do, is a logic_error. Zero (the default) for every node
    // without one; SeaStar sets both (net::Network::nic_delay).
    void set_nic_delay(uint32_t node, Time delay);

    // Fire events and drive runnables until simulated time `until` (inclusive for
    // events), or until request_stop(). With `stop_when_idle`, a run that runs out of
    // work (no event pending, every runnable asleep or stopped) ends at the time of
    // the last activity instead of `until`. Returns the time reached.
    Time run_until(Time until, bool stop_when_idle = false);
    // The running run_until's `until` (now outside a run): a model may commit now to what
    // it will do up to then (net::Network::inject_ahead), as the run gets there unless
    // it is stopped.
    Time run_end() const { return in_run_ ? until_ : now_; }
    bool in_run() const { return in_run_; }
    // Make run_until return as soon as the current event or runnable step finishes.
    void request_stop() { stop_ = true; horizon_ = now_; }
    bool stop_requested() const { return stop_; }

    // Runnables call this around device accesses so devices see the accessor's time.
    void sync_to(Time t) { now_ = t; }

    // The activity log the parts record into while one is attached (a latency
    // breakdown); null, the default, records nothing.
    ActivityLog* activity() const { return activity_; }
    void set_activity(ActivityLog* log) { activity_ = log; }

    // A flag another thread may set to abandon a run within a few thousand steps of
    // the kernel (a GUI's Cancel during a long point): run_until polls it every
    // kCancelPoll steps and throws Cancelled. Only read, so a run that is not
    // cancelled is step for step the same. Null (the default): never polled.
    static constexpr uint32_t kCancelPoll = 4096;
    void set_cancel(const std::atomic<bool>* flag) { cancel_ = flag; cancel_countdown_ = kCancelPoll; }

    bool has_pending_events() const { return !queue_empty() || activity_until_ > now_; }
    // Something happens at `at` that needs no event (a posted write landing when it is
    // next looked at, bus/hypertransport.hpp): a run to quiescence goes on to it, as it
    // would to an event that did nothing.
    void note_activity(Time at) { activity_until_ = std::max(activity_until_, at); }
    Time next_event_time() const { return first_event().time; }
    uint64_t events_fired() const { return events_fired_; }
    uint64_t events_scheduled() const { return seq_; }
    // Runs of a runnable (each up to its horizon): how finely the horizons cut the cores'
    // work, which is what a large system's host time goes into.
    uint64_t runnable_runs() const { return runs_; }
    // Times a runnable was taken to run and its horizon reckoned, whether or not it then
    // ran: each that did not (its horizon not past its clock) was kernel work for nothing.
    uint64_t runnable_visits() const { return visits_; }
    // What held each run, with lookahead (where its horizon came from when it started):
    // the run's end; the next event of its own node (its router's: plus the router
    // delay), or of no node; what its neighbours can do a lookahead on, or theirs two
    // (their next events and cores, or another core of its node), and a router delay;
    // the earliest time anything can happen plus three lookaheads and a router delay (one
    // lookahead, with no neighbours named). Where a large system's runs stop, so where
    // its host time goes (bench_scale).
    enum class Hold : uint8_t { End, Node, NoNode, Neighbours, Earliest };
    uint64_t runs_held_by(Hold h) const { return held_[size_t(h)]; }

private:
    struct Entry {
        Time time;
        Time made;       // when it was scheduled
        uint64_t seq;    // kByCore set when a core scheduled it, then the sequence number
        uint32_t node;   // whose it is
        uint32_t slot;
        uint32_t generation;
        // Field by field, each through a register. A new entry is built on the stack field
        // by field (40 bytes are not kept in registers); copied whole, it was read back by
        // 16-byte loads that had to wait for those stores to drain (a stall on store
        // forwarding: two fifths of scheduling an event on a DSNIC pair).
        void set_from(const Entry& o) {
            int64_t t = o.time.ps(), m = o.made.ps();
            uint64_t q = o.seq;
            uint32_t n = o.node, s = o.slot, g = o.generation;
            asm("" : "+r"(t), "+r"(m), "+r"(q), "+r"(n), "+r"(s), "+r"(g));  // not merged into vector moves
            time = Time::ps(t);
            made = Time::ps(m);
            seq = q;
            node = n;
            slot = s;
            generation = g;
        }
    };
    static constexpr uint64_t kByCore = uint64_t{1} << 63;
    // One cache line: an event's slot is written when it is scheduled and read when it
    // fires, cold in between on a large system. (With 48 bytes of captures a slot took 80
    // bytes and two lines.)
    struct alignas(64) Slot {
        Callback cb;
        uint32_t generation = 0;
        union {
            uint32_t node = kNoNode;  // with kRouterEvent for a router's
            uint32_t next_free;       // once free (it has no node then)
        };
    };
    // Events of one time: by when they were made, those a core made after those an
    // event made, then by node, then in the order made. Each key is the same whether or
    // not cores run ahead, so the order is too.
    static bool later(const Entry& a, const Entry& b) {
        if (a.time != b.time) return a.time > b.time;
        if (a.made != b.made) return a.made > b.made;
        if ((a.seq & kByCore) != (b.seq & kByCore)) return (a.seq & kByCore) != 0;
        if (a.node != b.node) return a.node > b.node;
        return a.seq > b.seq;
    }
    // `later` for the heap algorithms, which inline a function object (the function
    // itself they call through a pointer: a quarter of a NetPIPE sweep's host time).
    struct Later {
        bool operator()(const Entry& a, const Entry& b) const { return later(a, b); }
    };
    // e.node is the event's node for its order; owner the node with kRouterEvent for a
    // router's event (the queue it waits in).
    inline EventId insert(const Entry& e, Callback cb, uint32_t owner);  // kernel.cpp, the only user
    // The node without the router flag; kNoNode (its top bit set, unlike any node's) as it
    // is. Without a branch: it is on every lane event's way.
    static uint32_t plain(uint32_t node) { return node & (~kRouterEvent | uint32_t(int32_t(node) >> 31)); }
    // A lane's event has no slot: its key and its call are all there is of it, and a
    // cancelled one is left with no call. Firing it reads nothing else (the slot's
    // generation and callback, each a load behind the entry's, were two fifths of
    // fire_lane's time in a bulk transfer).
    struct LaneEntry {
        LaneEntry() {}  // left unset: set() writes every field where it goes
        Entry key;       // slot: the owner (the node, with kRouterEvent for a router's); generation unused
        SmallCall call;  // empty once cancelled
        // Field by field where the entry lies: built on the stack and copied in, it was read
        // back whole before its fields were stored (a stall on store forwarding).
        void set(Time at, Time made, uint64_t seq, uint32_t owner, SmallCall c) {
            key.time = at;
            key.made = made;
            key.seq = seq;
            key.node = plain(owner);
            key.slot = owner;
            key.generation = 0;
            call = c;
        }
    };
    // A lane event's id is its sequence number (63 bits: a lane's events are never a
    // core's) under kLaneId; once a flush has moved it to the heap, flushed_ gives its
    // id there (entries whose event has fired or gone are dropped at the next flush).
    static constexpr uint32_t kLaneId = 1u << 31;
    static EventId lane_id(uint64_t seq) { return EventId{kLaneId | uint32_t(seq >> 32), uint32_t(seq)}; }
    static uint64_t lane_seq(EventId id) { return (uint64_t(id.slot & ~kLaneId) << 32) | id.generation; }
    std::vector<std::pair<uint64_t, EventId>> flushed_;
    void cancel_in_lanes(EventId id);
    // A lane's events, earliest first from `head` (cancelled ones stay until they surface),
    // and the heap entry standing for the first; `firing` while fire_lane fires them.
    struct LaneQueue {
        std::vector<LaneEntry> events;
        size_t head = 0;
        EventId stand_in;
        bool firing = false;
    };
    std::vector<LaneQueue> lanes_;
    static constexpr size_t kLaneReach = 32;  // most events a new one may pass in its lane
    bool lanes_on_ = true;
    uint64_t lane_fired_ = 0;
    uint32_t awake_count_ = 0;  // runnables awake: lanes keep events only while none is
    Time until_{};              // the running run_until's end
    // Inline for the common case, an event later than every one already in its lane and
    // not its first: written at the end (the call was a third of scheduling one).
    EventId schedule_in_lane(Time at, SmallCall call, uint32_t node, Lane lane) {
        return schedule_in_lane(at, EventKey{now_, seq_++}, call, node, lane);
    }
    EventId schedule_in_lane(Time at, EventKey key, SmallCall call, uint32_t node, Lane lane) {
        LaneQueue& q = lanes_[lane];
        // At the back: after the last event's time, or into an empty lane that is firing (a
        // quarter of a bulk transfer's arrivals are scheduled so; an empty lane that is not
        // firing needs a stand-in: the slow path).
        const bool at_back = q.events.size() > q.head ? q.events.back().key.time < at : q.firing;
        if (at >= floor_ && at_back) [[likely]] {
            q.events.emplace_back().set(at, key.made, key.seq, node, call);
            return lane_id(key.seq);
        }
        return schedule_in_lane_slow(at, key, call, node, lane);
    }
    EventId schedule_in_lane_slow(Time at, EventKey reserved, SmallCall call, uint32_t node, Lane lane);
    void set_awake(Runnable* r, bool awake);
    void check_not_past(Time at) const {
        if (at < floor_) [[unlikely]] scheduled_in_past(at);
    }
    [[noreturn, gnu::cold]] void scheduled_in_past(Time at) const;  // std::logic_error naming both times
    [[noreturn, gnu::cold]] void key_in_core_run() const;           // std::logic_error naming the node and time
    void drop_dead_front(LaneQueue& lane);
    void drop_dead_front_slow(LaneQueue& lane);
    static constexpr size_t kLaneTrim = 1024;  // fired entries a lane keeps before it trims them
    void post_stand_in(Lane lane);
    void fire_lane(Lane lane);
    void flush_lanes();  // every lane's events into the heap
    uint32_t alloc_slot();
    uint32_t grow_slots();
    void free_slot(uint32_t s);
    void drive_runnables(Time horizon);
    bool fire_next(Time until);
    bool runnable_behind(Time t) const;
    Time latest_activity() const;
    void make_ready(Runnable* r);
    void park(Runnable* r);
    void leave_waits(Runnable* r);
    // Lookahead: the horizon of runnable r, where it must wait, and what wakes the waiting.
    enum Wait : uint8_t { kWaitNone, kWaitFloor, kWaitNode, kWaitGlobal, kWaitEnd };
    Time horizon_of(const Runnable* r, Time until);
    // The earliest anything another node does (or another core of r's node) can reach r;
    // exact below `cap`, at or above it only known to be at or above it.
    Time far_bound(const Runnable* r, Time cap);
    // Sooner than this after now, a cross-node event may be one a core ran past.
    Time cross_node_span() const {
        return (neighbours_.empty() ? lookahead_ * hops_ : lookahead_ * 3) + reach_max_ + router_delay_max_ + nic_delay_max_;
    }
    // The next live event of an owner (a node's NIC, its router, or kNoNode: the next of
    // none), kept in a dense array: the neighbour bound reads six nodes' per core run, and
    // at 2,048 nodes chasing each node's heap for them missed the cache (a fifth of a
    // halo's time).
    Time node_next(uint32_t owner) const { return node_next_at_[node_index(owner)]; }
    // Node n's next event of either kind: what reaches its neighbours a lookahead on.
    Time node_next_any(uint32_t n) const { return std::min(node_next_at_[2 * size_t(n)], node_next_at_[2 * size_t(n) + 1]); }
    // What bounds node n's cores: its NIC's next event, or its router's plus the router
    // delay (NodeBounds::own, kept with at_router_).
    Time own_bound(uint32_t n) const { return bounds_[n].own; }
    // Only with neighbours named: without, cores stop at other nodes' events a lookahead on.
    // From the node's bounds (a copy of the tables') where it has them: on every event's way.
    Time router_delay(uint32_t n) const { return n < bounds_.size() ? bounds_[n].router_delay : router_delay_set(n); }
    Time nic_delay(uint32_t n) const { return n < bounds_.size() ? bounds_[n].nic_delay : nic_delay_set(n); }
    Time router_delay_set(uint32_t n) const { return !neighbours_.empty() && n < router_delay_.size() ? router_delay_[n] : Time{}; }
    Time nic_delay_set(uint32_t n) const { return !neighbours_.empty() && n < nic_delay_.size() ? nic_delay_[n] : Time{}; }
    Time reach_set(uint32_t n) const { return reach_hints_ && n < reach_.size() ? reach_[n] : Time{}; }
    // A router event of `node` at `at`, scheduled by its NIC or a core of it: sooner than
    // the NIC delay, a logic_error if a core it reaches may have run past it.
    void check_nic_event(Time at, uint32_t node) const;
    // An owner's place in the per-owner arrays (queues_, node_next_at_): node n's NIC at
    // 2n, its router at 2n + 1, events of no node (or of a node past the last) last;
    // without lookahead, the one queue.
    size_t node_index(uint32_t owner) const {
        const size_t last = queue_count_ - 1;
        if (owner == kNoNode) return last;
        const size_t n = owner & ~kRouterEvent;
        return 2 * n < last ? 2 * n + ((owner & kRouterEvent) ? 1 : 0) : last;
    }
    std::vector<Time> router_delay_;  // set_router_delay, by node (grown on demand)
    Time router_delay_max_{};
    std::vector<Time> nic_delay_;  // set_nic_delay, by node (grown on demand)
    Time nic_delay_max_{};
    static void set_node_delay(const char* what, std::vector<Time>& delays, Time& max, uint32_t node, Time delay);
    uint32_t firing_owner_ = kNoNode;  // the firing event's owner (with kRouterEvent for a router's)
    void check_router_event(Time at, uint32_t node) const;
    void park_lookahead(Runnable* r, Time until, Time t);  // t: its local time
    // The far bound of the run under way, if horizon_of looked at it (exact below the
    // run's other bounds; a core held by one of those waits for that one).
    Time run_far_{};
    bool run_far_known_ = false;
    void release(std::vector<Runnable*>& waiting);
    void release_passed(uint32_t node);  // of node_wait_[node], or global_wait_ for kNoNode
    void check_cross_node(Time at, uint32_t node) const;
    // The earliest time anything can still happen: the next event, or the earliest awake
    // core but the running one (a core lagging behind may yet schedule something at its
    // own time), with its reach added.
    Time earliest() const { return std::min(next_event_time(), clock_tree_.empty() ? Time::max() : clock_tree_[1]); }
    void note_clock(Runnable* r, Time t);
    void note_node_reach(uint32_t node);
    // The earliest a core of `node` at local time t can reach another node, less the lookahead.
    Time reach_at(uint32_t node, Time t) const;
    bool lookahead_on() const { return lookahead_ > Time{}; }
    // Heap entries carry their keys, so ordering them reads no runnable.
    struct Ready {
        uint64_t pass, order;  // visited in pass order, then registration order
        Runnable* r;
        bool operator<(const Ready& o) const { return pass != o.pass ? pass > o.pass : order > o.order; }
    };
    struct Parked {
        Time at;  // its local time: ready again once the horizon is past it
        uint64_t order;
        Runnable* r;
        bool operator<(const Parked& o) const { return at != o.at ? at > o.at : order > o.order; }
    };

    void unpark(std::vector<Parked>& heap, Time t);

    // The pending events, a queue per owner (node_index; one queue for all without
    // lookahead), each its first event and a 4-ary min-heap by later() of the rest (a
    // cancelled event in the rest is dropped when it surfaces). A tournament tree over the
    // queues' first events gives the next event: win_[p] is the queue whose first is first
    // below tree entry p, so win_[1] is the kernel's next. One heap of every event
    // grew with the machine: at 2,048 nodes its pops cost 2.4 times what they cost at 64
    // per message, and each node's next event was kept in a second heap of its own.
    static constexpr Entry kNoEntry{Time::max(), Time::max(), UINT64_MAX, UINT32_MAX, UINT32_MAX, UINT32_MAX};
    // A queue's first event is kept apart from the rest, with the count of cancelled
    // entries among those and where the rest begins and ends, in the first of its two
    // cache lines (the rest's capacity, read to push into it, is in the second): an event
    // fired from a queue that holds no other reads nothing else, and one whose next is not
    // cancelled reads no slot to know it. (With the first on top of a vector's heap, each
    // pop read the vector's header, its last entry and the new first's slot, three lines
    // cold on a large system: 567 of a 2,048-node halo message's 7,930 misses of the
    // modelled L2, callgrind.)
    struct alignas(64) Queue {
        Entry top = kNoEntry;    // its first event, live; kNoEntry when it is empty
        uint32_t stale = 0;      // cancelled entries in `rest`, dropped when they surface
        std::vector<Entry> rest; // the others
    };
    std::vector<Queue> queues_;  // one per tree leaf: the leaves past queue_count_ stay empty
    size_t queue_count_ = 0;
    std::vector<uint32_t> win_;
    size_t leaves_ = 0;  // a power of two, at least the queues' count
    const Entry& first_event() const { return queues_[win_[1]].top; }
    bool queue_empty() const { return first_event().slot == UINT32_MAX; }
    void reset_queues(size_t count);
    void enqueue(size_t i, const Entry& e);
    void next_top(size_t i);  // queue i's top fired or was cancelled: the rest's first live one up
    void tree_earlier(size_t i);  // queue i's top came sooner
    void tree_later(size_t i);    // queue i's top came later, or it emptied
    bool before(uint32_t a, uint32_t b) const;
    std::vector<Slot> slots_;
    uint32_t free_head_ = UINT32_MAX;
    std::vector<Runnable*> runnables_;  // all, in registration order
    // By order: each runnable's hot_memory(), at most kHotLines cache lines of it.
    struct Hot {
        const std::byte* begin = nullptr;
        const std::byte* end = nullptr;
    };
    static constexpr uint32_t kHotLines = 24;
    std::vector<Hot> hot_;
    // By pointer and unrolled: a loop counting lines cost about 49 host instructions a
    // run more (callgrind, a 64-node halo, whose runs take about 2,500 each).
    void prefetch(uint64_t order) const {
        const Hot& h = hot_[order];
#pragma GCC unroll 8
        for (const std::byte* p = h.begin; p < h.end; p += 64) __builtin_prefetch(p);
    }
    std::vector<Ready> ready_;          // awake and to be visited: a min-heap
    std::vector<Parked> parked_;        // awake and at or past the horizon: a min-heap
    // Lookahead: the runnables waiting for the floor to rise (a min-heap by local time
    // less the lookahead), for their node's next event or the next of none to fire, and
    // for a later run.
    Time lookahead_{};
    uint32_t hops_ = 1;  // set_lookahead's, without neighbours
    // Each awake runnable's local time plus its reach, but the running one's (it bounds
    // nothing while it runs), as a tournament tree over registration order: leaf
    // clock_leaves_ + order, every inner entry the least of its two below, so the root is
    // the least of all. A run changes one leaf and the path above it; earliest() reads the
    // root. (A heap given a fresh entry per run, the superseded ones popped as they
    // surfaced, took a tenth of a 64-node halo's host instructions in earliest().)
    std::vector<Time> clock_tree_;
    size_t clock_leaves_ = 0;  // a power of two, or 0 before the first runnable
    void set_clock(uint64_t order, Time at);
    void drop_clock(const Runnable* r) { set_clock(r->order_, Time::max()); }
    std::vector<Time> node_next_at_;  // per leaf of the queues' tree: its top's time (node_next)
    // With lookahead, what bounds each node, in one cache line per node: an event's
    // refresh_node_bounds read and wrote five per-node arrays, a line each, every one cold on
    // a large system (at 2,048 nodes the NIC delay's line alone missed the modelled L2 at
    // nearly every event).
    struct alignas(64) NodeBounds {
        Time own = Time::max();  // own_bound
        // The least clock plus reach (reach_at) of its awake cores but the running one,
        // noted with each core's clock and when one sleeps (calling each core's
        // local_time() through its object in far_bound missed the cache).
        Time reach_at = Time::max();
        // The least parked_at_ of its node_wait_ (never: none), or less: every event fired
        // asks whether its node's next event still holds its waiting cores (reading their
        // list and each core's object for that missed the host's caches: release_passed
        // was 3.5 % of a 2,048-node halo's wall time, perf).
        Time wait_at = Time::max();
        // Copies of router_delay_set, nic_delay_set and reach_set, kept as those change.
        Time router_delay{}, nic_delay{}, reach{};
    };
    std::vector<NodeBounds> bounds_;  // by node, with lookahead
    // With neighbours named, per node b: what b can do next as its router sees it - its
    // router's next event, its NIC's and its cores' a NIC delay on. A lookahead or two on,
    // it bounds the cores b reaches. far_bound reads it for six to two dozen nodes at every
    // core run, so it is kept as its inputs change (set_node_next, set_node_reach,
    // set_nic_delay) rather than made from them at each read; and in an array of its own,
    // where neighbours along a row share a line (in each node's NodeBounds, far_bound's
    // misses at 2,048 nodes went from 245 to 567 a halo message, callgrind).
    std::vector<Time> at_router_;
    void copy_node_settings(uint32_t node);
    void set_node_next(size_t i, Time t);
    void set_node_reach(uint32_t node, Time t);
    void refresh_node_bounds(uint32_t b);
    std::vector<Parked> floor_wait_;
    std::vector<std::vector<Runnable*>> node_wait_;
    void note_node_wait(uint32_t node);
    std::vector<Runnable*> global_wait_, end_wait_;
    std::vector<std::vector<Runnable*>> node_runnables_;  // lookahead: each node's runnables
    NodeLists neighbours_;  // lookahead: set_lookahead's (empty: none named)
    NodeLists two_hops_;    // each node's neighbours' neighbours, not its own
    std::vector<Time> reach_;   // set_reach, by node (grown on demand; kept across set_lookahead)
    Time reach_max_{};          // the largest reach ever set: cross-node events sooner are checked
    bool reach_hints_ = true;
    Runnable* running_ = nullptr;  // lookahead: the runnable in run() (it has no entry in the clocks)
    uint32_t context_ = kNoNode;
    bool firing_ = false;   // an event's callback is running: firing_entry_'s (passed())
    bool lane_firing_ = false;  // fire_lane: the lane's next events are not in the heap
    bool fire_inline_on_ = true;
    uint64_t inline_fired_ = 0;
    Entry firing_entry_{};
    bool by_core_ = false;  // a runnable is running
    bool in_run_ = false;   // inside run_until
    uint64_t pass_ = 0;                 // drive_runnables' passes; the current one while in_pass_
    uint64_t cursor_ = 0;               // order of the runnable the pass is at (once driving_)
    bool in_pass_ = false;
    bool driving_ = false;              // in a pass, past its first visit
    bool renumber_ = false;             // a stopped pass left ready entries of two passes
    uint64_t next_order_ = 0;
    Time now_{};
    Time floor_{};  // time of the last fired event: nothing may be scheduled before it
    Time activity_until_{};  // note_activity
    Time horizon_{};
    uint64_t seq_ = 0;
    uint64_t events_fired_ = 0;
    uint64_t runs_ = 0;
    uint64_t visits_ = 0;
    std::array<uint64_t, size_t(Hold::Earliest) + 1> held_{};  // runs by Hold
    Hold hold_ = Hold::End;  // horizon_of's, for the run it starts
    bool stop_ = false;
    ActivityLog* activity_ = nullptr;
    const std::atomic<bool>* cancel_ = nullptr;
    uint32_t cancel_countdown_ = kCancelPoll;
    void poll_cancel();
};

}  // namespace niclab::sim
