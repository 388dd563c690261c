// Lookahead: a core runs past other nodes' events, up to its own node's next event, the
// next event of no node, or the last event fired plus the lookahead. Fake cores whose
// clocks advance in fixed steps show where the kernel lets each stop, and that what a
// core sees of its own node is what it would see stopping at every event.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "niclab/sim/kernel.hpp"
#include "stepping_core.hpp"

namespace niclab::sim {
namespace {

using Core = test::SteppingCore;

// A kernel with lookahead over two nodes and a core of node 0.
struct OneCore {
    Kernel k;
    Core core;
    OneCore(Time step, Time lookahead) : core(step) {
        k.add_runnable(&core);
        k.set_runnable_node(&core, 0);
        k.set_lookahead(lookahead, 2);
    }
};

// Node 1's events come every nanosecond; node 0's core steps 10 ns at a time.
struct TwoNodes {
    Kernel k;
    Core core0{Time::ns(10)};
    std::vector<Time> node1_events;
    explicit TwoNodes(Time lookahead) {
        k.add_runnable(&core0);
        k.set_runnable_node(&core0, 0);
        k.set_lookahead(lookahead, 2);
        for (int64_t t = 1; t < 1000; ++t) k.schedule_at(Time::ns(t), [this] { node1_events.push_back(k.now()); }, 1);
    }
};

TEST(SimKernelLookahead, ACoreRunsPastAnotherNodesEvents) {
    TwoNodes without(Time{}), with(Time::ns(100));
    without.k.run_until(Time::ns(1000));
    with.k.run_until(Time::ns(1000));
    EXPECT_EQ(with.node1_events, without.node1_events);
    EXPECT_EQ(with.core0.local_time(), without.core0.local_time());
    // Stopping at every event of node 1 costs a run per event; with 100 ns of
    // lookahead the core needs about one per 100 ns.
    EXPECT_GT(without.core0.runs, 90);
    EXPECT_LT(with.core0.runs, 25);
}

TEST(SimKernelLookahead, ACoreStopsAtItsOwnNodesEvents) {
    OneCore one(Time::ns(7), Time::us(1));
    auto& [k, core] = one;
    std::vector<Time> seen;
    for (int64_t t : {100, 250, 600}) k.schedule_at(Time::ns(t), [&] { seen.push_back(core.local_time()); }, 0);
    k.run_until(Time::ns(1000));
    // Each of its node's events finds the core at the first step at or after it.
    EXPECT_EQ(seen, (std::vector<Time>{Time::ns(105), Time::ns(252), Time::ns(602)}));
}

// A core that stepped past a burst of its node's events waits for the last of them: each
// one before it that fires leaves the next still behind the core's clock, and looking at
// the core again then would only find it held and park it again.
TEST(SimKernelLookahead, ACoreIsLookedAtAgainOnceItsNodesEventsAreBehindIt) {
    OneCore one(Time::ns(50), Time::us(1));
    auto& [k, core] = one;
    std::vector<Time> seen;
    for (int64_t t : {10, 20, 30, 40}) k.schedule_at(Time::ns(t), [&] { seen.push_back(core.local_time()); }, 0);
    k.run_until(Time::ns(1000));
    // Its first step took it to 50 ns, past all four; then it ran to the end.
    EXPECT_EQ(seen, std::vector<Time>(4, Time::ns(50)));
    EXPECT_EQ(core.local_time(), Time::ns(1000));
    EXPECT_EQ(k.runnable_runs(), 2u);
    EXPECT_EQ(k.runnable_visits(), 2u);  // not once more for each event but the last
}

TEST(SimKernelLookahead, AnEventOfNoNodeStopsEveryCore) {
    OneCore one(Time::ns(7), Time::us(1));
    auto& [k, core] = one;
    Time seen{};
    k.schedule_at(Time::ns(100), [&] { seen = core.local_time(); }, kNoNode);
    k.run_until(Time::ns(500));
    EXPECT_EQ(seen, Time::ns(105));
}

// What another node sends arrives no sooner than the lookahead: the core, ahead, has
// not passed it, and reacts at the same step as a core that stopped at every event.
TEST(SimKernelLookahead, WhatArrivesFromAnotherNodeFindsTheCoreWhereItWouldBe) {
    auto run = [](Time lookahead) {
        OneCore one(Time::ns(3), lookahead);
        auto& [k, core] = one;
        std::vector<Time> arrivals;
        // Node 1 sends every 37 ns, each arriving at node 0 50 ns later.
        std::function<void()> send = [&] {
            if (k.now() > Time::ns(900)) return;
            k.schedule_in(Time::ns(50), [&] { arrivals.push_back(core.local_time()); }, 0);
            k.schedule_in(Time::ns(37), send);
        };
        k.schedule_at(Time::ns(1), send, 1);
        k.run_until(Time::ns(1000));
        return std::pair{arrivals, core.runs};
    };
    const auto [every, runs_every] = run(Time{});
    const auto [ahead, runs_ahead] = run(Time::ns(50));
    EXPECT_EQ(ahead, every);
    EXPECT_FALSE(every.empty());
    EXPECT_LE(runs_ahead, runs_every);
}

TEST(SimKernelLookahead, ACrossNodeEventSoonerThanTheLookaheadIsALogicError) {
    OneCore one(Time::ns(5), Time::ns(100));
    auto& k = one.k;
    k.schedule_at(Time::ns(10), [&] { k.schedule_in(Time::ns(1), [] {}, 0); }, 1);
    try {
        k.run_until(Time::ns(200));
        ADD_FAILURE() << "no error";
    } catch (const std::logic_error& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("node 0"), std::string::npos) << what;
        EXPECT_NE(what.find("from node 1"), std::string::npos) << what;
    }
}

TEST(SimKernelLookahead, ACoreWithNothingElseToWaitForRunsToTheEnd) {
    Kernel k;
    Core a(Time::ns(10)), b(Time::ns(13));
    k.add_runnable(&a);
    k.add_runnable(&b);
    k.set_runnable_node(&a, 0);
    k.set_runnable_node(&b, 1);
    k.set_lookahead(Time::ns(20), 2);
    k.run_until(Time::ns(1000));
    EXPECT_GE(a.local_time(), Time::ns(1000));
    EXPECT_GE(b.local_time(), Time::ns(1000));
}


// Reach (Kernel::set_reach): two cores that each send to the other node now and then,
// what they send arriving `delay` after the step it was sent at. Each arrival records
// where the receiving core stood.
struct Senders {
    Kernel k;
    Core core[2] = {Core(Time::ns(3)), Core(Time::ns(4))};
    std::vector<std::pair<uint32_t, Time>> arrivals;  // (node, its core's local time)
    Time delay[2] = {Time::ns(120), Time::ns(120)};
    Senders(Time reach, bool hints) {
        for (uint32_t n = 0; n < 2; ++n) {
            k.add_runnable(&core[n]);
            k.set_runnable_node(&core[n], n);
            k.set_reach(n, reach);
            int steps = 0;
            core[n].on_step = [this, n, steps](Kernel& kk, Time t) mutable {
                if (++steps % (40 + 9 * n) != 0) return;
                const uint32_t to = 1 - n;
                kk.sync_to(t);
                kk.schedule_at(t + delay[n], [this, to] { arrivals.emplace_back(to, core[to].local_time()); }, to);
            };
        }
        k.set_lookahead(Time::ns(20), 2);
        k.set_reach_hints(hints);
    }
    int runs() const { return core[0].runs + core[1].runs; }
};

// What a core sends reaches the other node 120 ns later, so a reach of 100 ns on top of
// the 20 ns lookahead holds: the cores stop less often, and nothing moves.
TEST(SimKernelReach, AReachLetsTheOtherCoreRunFurtherAndMovesNothing) {
    Senders with(Time::ns(100), true), without(Time::ns(100), false);
    with.k.run_until(Time::ns(3000));
    without.k.run_until(Time::ns(3000));
    EXPECT_EQ(with.arrivals, without.arrivals);
    EXPECT_GT(with.arrivals.size(), 20u);
    EXPECT_LT(with.runs() * 2, without.runs()) << with.runs() << " runs with the reach, " << without.runs() << " without";
}

// A core that sends sooner than its reach promised breaks causality: the other core may
// have run past the arrival already, and the kernel says so (without the reach the same
// sends keep the 20 ns lookahead and are fine).
TEST(SimKernelReach, ASendSoonerThanTheReachIsALogicError) {
    Senders with(Time::ns(100), true), without(Time::ns(100), false);
    with.delay[1] = without.delay[1] = Time::ns(30);
    EXPECT_THROW(with.k.run_until(Time::ns(3000)), std::logic_error);
    EXPECT_NO_THROW(without.k.run_until(Time::ns(3000)));
}

// The model lowers a node's reach from an event (SeaStar: a packet arrives that the NIC
// must hold back) before its core sends any sooner: the other core's bound shrinks at
// once, and every arrival is where it is without reaches.
TEST(SimKernelReach, LoweringTheReachFromAnEventKeepsEveryArrivalInPlace) {
    auto run = [](bool hints) {
        auto s = std::make_unique<Senders>(Time::ns(100), hints);
        Senders* p = s.get();
        s->k.schedule_at(Time::ns(1000), [p] {
            p->k.set_reach(1, Time{});
            p->delay[1] = Time::ns(20);
        }, 1);
        s->k.run_until(Time::ns(3000));
        return s;
    };
    auto with = run(true), without = run(false);
    EXPECT_EQ(with->arrivals, without->arrivals);
    EXPECT_LT(with->runs(), without->runs());
}

// Neighbours (set_lookahead's third argument): five nodes in a line, 0-1-2-3-4, each core
// sending now and then to a node `hops` along, what it sends arriving `delay` later.
// Node 0's core steps in 1 ns, the others in 5 ns, and the others send rarely: with the
// lookahead alone every core waits for node 0's, one lookahead past it; with neighbours
// named, only node 1's does, node 2 runs two lookaheads past it and nodes 3-4 three. An
// arrival is (sender, receiver, time, the receiver's core's clock): with the lookahead
// (exact) the same whatever the kernel knows of neighbours; a core run past its arrival
// would show.
struct Line {
    static constexpr uint32_t kNodes = 5;
    Kernel k;
    std::vector<std::unique_ptr<Core>> cores;
    std::vector<std::tuple<uint32_t, uint32_t, Time, Time>> arrivals;  // from, to, when, the receiving core's clock then
    // `ring`: the neighbours named are those of a ring (a cable from node 4 to node 0 as
    // well, which nothing sends over): node 3 is then two hops from node 0, not three.
    // `idle`: nodes without a core (nothing there runs ahead or sends).
    Line(Time lookahead, bool neighbours, uint32_t hops, Time delay, bool ring = false, std::vector<uint32_t> idle = {}) {
        std::vector<std::vector<uint32_t>> next(kNodes);
        for (uint32_t n = 0; n + 1 < kNodes; ++n) {
            next[n].push_back(n + 1);
            next[n + 1].push_back(n);
        }
        if (ring) {
            next[0].push_back(kNodes - 1);
            next[kNodes - 1].push_back(0);
        }
        for (uint32_t n = 0; n < kNodes; ++n) {
            cores.push_back(std::make_unique<Core>(Time::ns(n == 0 ? 1 : 5)));
            if (std::find(idle.begin(), idle.end(), n) != idle.end()) continue;
            k.add_runnable(cores[n].get());
            k.set_runnable_node(cores[n].get(), n);
            int steps = 0;
            cores[n]->on_step = [this, n, hops, delay, steps](Kernel& kk, Time t) mutable {
                if (++steps % (n == 0 ? 97 : 151 + 7 * n) != 0) return;
                if (n + hops >= kNodes && n < hops) return;  // no node `hops` along either way
                const uint32_t to = n + hops < kNodes ? n + hops : n - hops;
                kk.sync_to(t);
                kk.schedule_at(t + delay, [this, n, to] { arrivals.emplace_back(n, to, k.now(), cores[to]->local_time()); }, to);
            };
        }
        k.set_lookahead(lookahead, kNodes, neighbours ? next : std::vector<std::vector<uint32_t>>{});
    }
    // What was sent, without the receiving cores' clocks (the kernel that stops at every
    // event, not exact, can find a core elsewhere).
    std::vector<std::tuple<uint32_t, uint32_t, Time>> sent() const {
        std::vector<std::tuple<uint32_t, uint32_t, Time>> out;
        for (const auto& [from, to, when, clock] : arrivals) out.emplace_back(from, to, when);
        return out;
    }
    int runs(uint32_t from) const {
        int n = 0;
        for (uint32_t i = from; i < kNodes; ++i) n += cores[i]->runs;
        return n;
    }
};

TEST(SimKernelNeighbours, NamedNeighboursLetFarCoresRunFurtherAndMoveNothing) {
    Line every(Time{}, false, 1, Time::ns(20)), alone(Time::ns(20), false, 1, Time::ns(20)),
        named(Time::ns(20), true, 1, Time::ns(20));
    for (Line* l : {&every, &alone, &named}) l->k.run_until(Time::ns(6000));
    EXPECT_EQ(alone.sent(), every.sent());
    EXPECT_EQ(named.arrivals, alone.arrivals);
    EXPECT_GT(named.arrivals.size(), 60u);
    // Nodes 2-4 run up to two or three lookaheads past node 0's core instead of one: a
    // quarter fewer runs at least (their own node's arrivals stop them too).
    EXPECT_LT(named.runs(2) * 4, alone.runs(2) * 3) << named.runs(2) << " runs named, " << alone.runs(2) << " not";
}

TEST(SimKernelNeighbours, AnEventForANodeTwoHopsAwaySoonerThanTwoLookaheadsIsALogicError) {
    Line named(Time::ns(20), true, 2, Time::ns(30)), alone(Time::ns(20), false, 2, Time::ns(30));
    EXPECT_THROW(named.k.run_until(Time::ns(3000)), std::logic_error);
    EXPECT_NO_THROW(alone.k.run_until(Time::ns(3000)));
}

// Two hops on, what a node does reaches a core two lookaheads later; three hops on and
// beyond, three (Kernel::far_bound): events sent that far that late find every core where
// the lookahead alone finds it. The nodes between have no core, whose clock would hold the
// receiver back as much.
TEST(SimKernelNeighbours, EventsTwoAndThreeHopsAwayFindTheirCoresWhereTheLookaheadAloneDoes) {
    for (uint32_t hops : {2u, 3u}) {
        const Time delay = Time::ns(20) * int64_t(hops);
        const std::vector<uint32_t> idle = hops == 2 ? std::vector<uint32_t>{1, 3} : std::vector<uint32_t>{1, 2};
        Line alone(Time::ns(20), false, hops, delay, false, idle), named(Time::ns(20), true, hops, delay, false, idle);
        for (Line* l : {&alone, &named}) l->k.run_until(Time::ns(6000));
        EXPECT_EQ(named.arrivals, alone.arrivals) << hops << " hops";
        EXPECT_GT(named.arrivals.size(), 30u) << hops << " hops";
    }
}

// Node 3 is three hops from node 0's busy core on the line, two on the ring: on the line
// it runs three lookaheads past that core instead of two, and so stops less often (about
// a tenth; its own node's arrivals stop it too). The same arrivals either way.
TEST(SimKernelNeighbours, ANodeThreeHopsAwayRunsThreeLookaheadsPast) {
    Line line(Time::ns(20), true, 1, Time::ns(20)), ring(Time::ns(20), true, 1, Time::ns(20), true);
    for (Line* l : {&line, &ring}) l->k.run_until(Time::ns(6000));
    EXPECT_EQ(line.arrivals, ring.arrivals);
    const int on_line = line.cores[3]->runs, on_ring = ring.cores[3]->runs;
    EXPECT_LT(on_line * 20, on_ring * 19) << on_line << " runs three hops away, " << on_ring << " two hops away";
}

TEST(SimKernelNeighbours, NeighboursOfTheWrongNodesAreRejected) {
    Kernel k;
    EXPECT_THROW(k.set_lookahead(Time::ns(20), 2, {{1}}), std::invalid_argument);
    EXPECT_THROW(k.set_lookahead(Time::ns(20), 2, {{1}, {2}}), std::invalid_argument);
    EXPECT_NO_THROW(k.set_lookahead(Time::ns(20), 2, {{1}, {0}}));
}

// What held each run (Kernel::Hold, which bench_scale reports): each bound is counted where
// it is the one that stops the core, and the counts add up to the runs.
TEST(SimKernelHold, EachRunCountsWhatHeldIt) {
    using Hold = Kernel::Hold;
    const auto held = [](const Kernel& k) {
        uint64_t n = 0;
        for (Hold h : {Hold::End, Hold::Node, Hold::NoNode, Hold::Neighbours, Hold::Earliest}) n += k.runs_held_by(h);
        return n;
    };
    OneCore one(Time::ns(7), Time::us(1));  // its node's events and one of no node stop it
    for (int64_t t : {100, 250, 600}) one.k.schedule_at(Time::ns(t), [] {}, 0);
    one.k.schedule_at(Time::ns(300), [] {}, kNoNode);
    one.k.run_until(Time::ns(1000));
    EXPECT_EQ(one.k.runs_held_by(Hold::Node), 3u);
    EXPECT_EQ(one.k.runs_held_by(Hold::NoNode), 1u);
    EXPECT_EQ(one.k.runs_held_by(Hold::End), 1u);
    EXPECT_EQ(held(one.k), one.k.runnable_runs());

    TwoNodes two(Time::ns(100));  // node 1's events, a lookahead on
    two.k.run_until(Time::ns(1000));
    EXPECT_GT(two.k.runs_held_by(Hold::Earliest), 5u);
    EXPECT_EQ(two.k.runs_held_by(Hold::Node) + two.k.runs_held_by(Hold::Neighbours), 0u);
    EXPECT_EQ(held(two.k), two.k.runnable_runs());

    Line named(Time::ns(20), true, 1, Time::ns(20)), alone(Time::ns(20), false, 1, Time::ns(20));
    named.k.run_until(Time::ns(6000));
    alone.k.run_until(Time::ns(6000));
    EXPECT_GT(named.k.runs_held_by(Hold::Neighbours), named.k.runnable_runs() / 10);
    EXPECT_EQ(alone.k.runs_held_by(Hold::Neighbours), 0u);  // none named
    EXPECT_EQ(held(named.k), named.k.runnable_runs());

    Kernel every;  // no lookahead: nothing is counted
    Core core(Time::ns(5));
    every.add_runnable(&core);
    every.schedule_at(Time::ns(50), [] {});
    every.run_until(Time::ns(100));
    EXPECT_GT(every.runnable_runs(), 0u);
    EXPECT_EQ(held(every), 0u);
}

}  // namespace
}  // namespace niclab::sim
