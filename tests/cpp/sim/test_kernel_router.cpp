// Router events (Kernel::kRouterEvent, set_router_delay): a node's router's events reach
// its core only a router delay after they fire, so the core runs that far past them, and
// with neighbours named, past everything another node does (which reaches it through its
// router). Fake cores in a line of nodes, each with a router: a core now and then sends to
// a neighbour, whose router takes the packet a cable later and hands it to its NIC a
// cable after that, where the arrival records the receiving core's clock.
#include <gtest/gtest.h>

#include <initializer_list>
#include <memory>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "niclab/sim/kernel.hpp"
#include "stepping_core.hpp"

namespace niclab::sim {
namespace {

using Core = test::SteppingCore;

constexpr Time kCable = Time::ns(20);  // the lookahead, and the router-to-NIC cable

// Nodes 0..4 in a line. `router_delay` zero: router events are plain events of the node.
// `to_router` above zero: a core's packet goes through its own router first, that long
// after it sends (the NIC-to-router cable), and the node's NIC delay is `nic_delay`.
struct RoutedLine {
    static constexpr uint32_t kNodes = 5;
    Kernel k;
    std::vector<std::unique_ptr<Core>> cores;
    std::vector<std::tuple<uint32_t, uint32_t, Time, Time>> arrivals;  // from, to, when, the core's clock then
    RoutedLine(Time lookahead, Time router_delay, Time to_nic = kCable, Time to_router = {}, Time nic_delay = {}) {
        std::vector<std::vector<uint32_t>> next(kNodes);
        for (uint32_t n = 0; n + 1 < kNodes; ++n) {
            next[n].push_back(n + 1);
            next[n + 1].push_back(n);
        }
        for (uint32_t n = 0; n < kNodes; ++n) {
            cores.push_back(std::make_unique<Core>(Time::ns(n == 0 ? 1 : 3 + n)));
            k.add_runnable(cores[n].get());
            k.set_runnable_node(cores[n].get(), n);
            k.set_router_delay(n, router_delay);
            k.set_nic_delay(n, nic_delay);
            int steps = 0;
            cores[n]->on_step = [this, n, to_nic, to_router, steps](Kernel& kk, Time t) mutable {
                if (++steps % (n == 0 ? 89 : 37 + 5 * n) != 0) return;
                const uint32_t to = n + 1 < kNodes ? n + 1 : n - 1;
                kk.sync_to(t);
                // The router takes it a cable later, and its NIC a cable after that.
                auto at_router = [this, n, to, to_nic] {
                    k.schedule_in(to_nic, [this, n, to] { arrivals.emplace_back(n, to, k.now(), cores[to]->local_time()); }, to);
                };
                if (to_router == Time{}) {
                    kk.schedule_at(t + kCable, at_router, to | Kernel::kRouterEvent);
                    return;
                }
                kk.schedule_at(t + to_router, [this, to, at_router] { k.schedule_in(kCable, at_router, to | Kernel::kRouterEvent); },
                               n | Kernel::kRouterEvent);
            };
        }
        k.set_lookahead(lookahead, kNodes, next);
    }
    int runs() const {
        int n = 0;
        for (const auto& c : cores) n += c->runs;
        return n;
    }
};

// Runs the line for 8 us, which must end in a logic_error whose text holds each of `parts`.
void expect_logic_error(RoutedLine& line, std::initializer_list<const char*> parts) {
    try {
        line.k.run_until(Time::ns(8000));
        ADD_FAILURE() << "no error";
    } catch (const std::logic_error& e) {
        const std::string what = e.what();
        for (const char* part : parts) EXPECT_NE(what.find(part), std::string::npos) << what;
    }
}

// Every arrival finds its core where it finds it when the router's events bound the core
// at once (the lookahead alone, exact: kernel.hpp); the delay saves runs.
TEST(SimKernelRouter, ARouterDelayLetsCoresRunFurtherAndMovesNothing) {
    RoutedLine plain(kCable, Time{}), routed(kCable, kCable);
    for (RoutedLine* l : {&plain, &routed}) l->k.run_until(Time::ns(8000));
    EXPECT_GT(plain.arrivals.size(), 100u);
    EXPECT_EQ(routed.arrivals, plain.arrivals);
    EXPECT_LT(routed.runs() * 4, plain.runs() * 3) << routed.runs() << " runs with the router delay, " << plain.runs() << " without";
}

// A router event of its own node holds a core a router delay past it; its NIC's event
// holds it where it is. The delay counts from when it is set, before the lookahead or
// after it with the event already waiting.
TEST(SimKernelRouter, ACoreStopsARouterDelayPastItsRoutersEvent) {
    for (const bool router : {false, true})
        for (const bool delay_last : {false, true}) {
            Kernel k;
            Core core(Time::ns(7));
            k.add_runnable(&core);
            k.set_runnable_node(&core, 0);
            if (!delay_last) k.set_router_delay(0, Time::ns(30));
            k.set_lookahead(Time::us(1), 2, {{1}, {0}});
            Time seen{};
            k.schedule_at(Time::ns(100), [&] { seen = core.local_time(); }, router ? 0 | Kernel::kRouterEvent : 0);
            if (delay_last) k.set_router_delay(0, Time::ns(30));
            k.run_until(Time::ns(500));
            EXPECT_EQ(seen, router ? Time::ns(133) : Time::ns(105))
                << (router ? "router event" : "NIC event") << (delay_last ? ", delay set last" : "");
        }
}

// A router whose event hands its NIC something sooner than the router delay breaks the
// promise the core ran on: the kernel says so, naming the node and the delay (with the
// delay zero, the same events are fine).
TEST(SimKernelRouter, ARouterEventReachingItsNicSoonerThanTheRouterDelayIsALogicError) {
    RoutedLine broken(kCable, kCable, Time::ns(5)), plain(kCable, Time{}, Time::ns(5));
    expect_logic_error(broken, {"router delay of 20000 ps", "scheduled by its router's event"});
    EXPECT_NO_THROW(plain.k.run_until(Time::ns(8000)));
}

// A core's packets reach its own router a NIC-to-router cable after it sends them: with
// that as the nodes' NIC delay, the other cores run that much further past it, and every
// arrival finds its core where it does without.
TEST(SimKernelRouter, ANicDelayLetsOtherCoresRunFurtherAndMovesNothing) {
    const Time to_router = Time::ns(10);
    RoutedLine plain(kCable, kCable, kCable, to_router), delayed(kCable, kCable, kCable, to_router, to_router);
    for (RoutedLine* l : {&plain, &delayed}) l->k.run_until(Time::ns(8000));
    EXPECT_GT(plain.arrivals.size(), 100u);
    EXPECT_EQ(delayed.arrivals, plain.arrivals);
    EXPECT_LT(delayed.runs() * 100, plain.runs() * 97) << delayed.runs() << " runs with the NIC delay, " << plain.runs() << " without";
}

// A core whose packet reaches its router sooner than the NIC delay promised: the kernel
// says so, naming the node and the delay (with the delay zero, the same events are fine).
TEST(SimKernelRouter, ARouterEventSoonerThanTheNicDelayIsALogicError) {
    RoutedLine broken(kCable, kCable, kCable, Time::ns(2), Time::ns(10)), plain(kCable, kCable, kCable, Time::ns(2));
    expect_logic_error(broken, {"NIC delay of 10000 ps", "'s router at"});
    EXPECT_NO_THROW(plain.k.run_until(Time::ns(8000)));
}

// A node at or above the router flag has no delays: the error names the call and the node.
TEST(SimKernelRouter, DelaysOfANodeOutOfRangeAreRejected) {
    Kernel k;
    const uint32_t bad = Kernel::kRouterEvent;
    for (const auto& [name, set] : {std::pair{std::string("set_router_delay"), &Kernel::set_router_delay},
                                    std::pair{std::string("set_nic_delay"), &Kernel::set_nic_delay}}) {
        try {
            (k.*set)(bad, Time::ns(10));
            ADD_FAILURE() << name << ": no error";
        } catch (const std::invalid_argument& e) {
            EXPECT_EQ(std::string(e.what()), name + ": node " + std::to_string(bad) + " is out of range");
        }
        EXPECT_NO_THROW((k.*set)(kNoNode, Time::ns(10))) << name;  // no node has none
    }
}

// A router event is ordered as an event of its node: with the same key, the same place.
TEST(SimKernelRouter, RouterEventsFireInTheOrderOfTheirNodesEvents) {
    Kernel k;
    k.set_lookahead(Time::ns(20), 2, {{1}, {0}});
    k.set_router_delay(0, Time::ns(20));
    std::vector<int> order;
    for (int i = 0; i < 6; ++i)
        k.schedule_at(Time::ns(50), [&order, i] { order.push_back(i); }, i % 2 ? 0 | Kernel::kRouterEvent : 0);
    k.run_until(Time::ns(100));
    EXPECT_EQ(order, (std::vector<int>{0, 1, 2, 3, 4, 5}));
}

}  // namespace
}  // namespace niclab::sim
