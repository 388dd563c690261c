// Lookahead: a core runs past other nodes' events, up to its own node's next event, the
// next event of no node, or the last event fired plus the lookahead. Fake cores whose
// clocks advance in fixed steps show where the kernel lets each stop, and that what a
// core sees of its own node is what it would see stopping at every event.
#include <gtest/gtest.h>

#include <functional>
#include <stdexcept>
#include <vector>

#include "niclab/sim/kernel.hpp"

namespace niclab::sim {
namespace {

class Core : public Runnable {
public:
    explicit Core(Time step) : step_(step) {}
    Time local_time() const override { return local_; }
    bool active() const override { return active_; }
    void run(Kernel& k) override {
        ++runs;
        while (active_ && local_ < k.horizon()) {
            if (on_step) on_step(k, local_);
            local_ += step_;
        }
    }
    bool active_ = true;
    int runs = 0;
    std::function<void(Kernel&, Time)> on_step;  // at the start of each step, at its time

private:
    Time local_{};
    Time step_;
};

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

}  // namespace
}  // namespace niclab::sim
