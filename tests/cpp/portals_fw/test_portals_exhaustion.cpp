// Resource exhaustion and protocol violations (seed 000 §4.3.3): built with
// PTL_EXHAUSTION=0 (portals_tiny_panic) the C firmware does not recover, it panics the
// node as the seed's did - with a reason that names the pool and the numbers - and
// never hangs (the default, go-back-N, is test_portals_gbn.cpp). portals_tiny_panic
// has 4 sources, 4 TX and 8 RX pendings and 8 segments. Also the INIT checks of the
// event queue size.
#include <gtest/gtest.h>

#include "niclab/core/fault.hpp"
#include "portals_harness.hpp"

namespace niclab::test {
namespace {

using ptl::Incoming;
using ptl::NodeScript;

void expect_panic(system::System& sys, size_t node, const std::string& text) {
    ASSERT_TRUE(sys.nic(node).faulted()) << "node " << node << " did not stop";
    auto f = sys.nic(node).fault();
    ASSERT_TRUE(f.has_value());
    EXPECT_EQ(f->info().kind, core::FaultKind::Panic);
    EXPECT_NE(f->info().message.find(text), std::string::npos) << "panic message: " << f->info().message;
    EXPECT_NE(std::string(f->what()).find(text), std::string::npos) << f->what();
}

TEST(PortalsExhaustion, UnreleasedRxPendingsPanicNamingThePool) {
    system::System sys(ptl::spec(2, "portals_tiny_panic"));
    NodeScript tx, rx;
    for (uint32_t i = 0; i < 9; ++i) tx.sends.push_back({1, i, 0x100000, 100, {}, {}});
    rx.expect_rx = 9;
    rx.release = false;  // the host keeps every RX pending
    rx.place = [](const Incoming&) { return ptl::Placement{0x200000, 100, {}}; };
    auto r = ptl::run(sys, {{0, &tx}, {1, &rx}});
    ASSERT_EQ(r.result.faulted_nodes, std::vector<size_t>{1});
    expect_panic(sys, 1, "RX pending pool exhausted: 8 of 8 in use");
    EXPECT_NE(sys.nic(1).fault()->where().find("rx"), std::string::npos) << sys.nic(1).fault()->where();
    EXPECT_EQ(r.hosts[1]->niccb(ptl::kRxInUse), 8u) << "the panic came with all 8 pendings held";
    EXPECT_EQ(r.hosts[1]->niccb(ptl::kRxMessages), 8u) << "the 9th message found no pending";
    EXPECT_FALSE(rx.finished);
}

TEST(PortalsExhaustion, VsmallMessagesHoldPendingsUntilReleasedToo) {
    system::System sys(ptl::spec(2, "portals_tiny_panic"));
    NodeScript tx, rx;
    for (uint32_t i = 0; i < 9; ++i) {
        ptl::Outgoing m;
        m.dst = 1;
        m.tag = i;
        m.inline_data = {1, 2, 3};
        tx.sends.push_back(m);
    }
    rx.expect_rx = 9;
    rx.release = false;
    ptl::run(sys, {{0, &tx}, {1, &rx}});
    expect_panic(sys, 1, "RX pending pool exhausted: 8 of 8 in use");
}

TEST(PortalsExhaustion, ReleasedPendingsAreReused) {
    // The same 8-pending pool carries 40 messages when the host releases them (and
    // the sender leaves the receiver's host the time to: there is no flow control
    // between the hosts, §4.3.3).
    system::System sys(ptl::spec(2, "portals_tiny_panic"));
    NodeScript tx, rx;
    for (uint32_t i = 0; i < 40; ++i) tx.sends.push_back({1, i, 0x100000, 100, {}, {}});
    tx.gap = Time::us(10);
    rx.expect_rx = 40;
    rx.place = [](const Incoming&) { return ptl::Placement{0x200000, 100, {}}; };
    auto r = ptl::run(sys, {{0, &tx}, {1, &rx}});
    EXPECT_TRUE(r.result.faulted_nodes.empty());
    EXPECT_TRUE(tx.finished && rx.finished);
    EXPECT_LE(r.hosts[1]->niccb(ptl::kRxInUseMax), 8u);
    EXPECT_EQ(r.hosts[1]->niccb(ptl::kRxInUse), 0u);
}

TEST(PortalsExhaustion, MoreSendersThanSourcesPanicNamingThePool) {
    system::System sys(ptl::spec(6, "portals_tiny_panic"));
    std::map<uint32_t, NodeScript> senders;
    NodeScript rx;
    rx.expect_rx = 5;
    rx.release = false;  // every sender's source stays referenced
    rx.place = [](const Incoming&) { return ptl::Placement{}; };
    std::map<uint32_t, NodeScript*> scripts{{0, &rx}};
    for (uint32_t s = 1; s < 6; ++s) {
        senders[s].sends.push_back({0, s, 0x100000, 10, {}, {}});
        senders[s].start_delay = Time::us(20 * s);  // one after the other
        scripts[s] = &senders[s];
    }
    ptl::run(sys, scripts);
    expect_panic(sys, 0, "source pool exhausted: 4 of 4 in use");
    EXPECT_EQ(rx.received.size(), 4u);
}

TEST(PortalsExhaustion, SegmentPoolExhaustedPanics) {
    system::System sys(ptl::spec(2, "portals_tiny_panic"));
    NodeScript tx;
    std::vector<ptl::Seg> segs;
    for (uint32_t i = 0; i < 9; ++i) segs.push_back({0x100000 + i * 0x1000, 10});
    tx.sends.push_back({1, 0, 0, 0, segs, {}});
    ptl::run(sys, {{0, &tx}});
    expect_panic(sys, 0, "segment pool exhausted: 8 of 8 in use");
}

// ---- protocol violations: panics, never silent corruption ----

void post_after_init(system::System& sys, const std::array<uint32_t, 8>& cmd) {
    ptl::PortalsHost h(sys, 0);
    host::Process p(sys.host_cpu(0), "bad", [&](host::ProcessContext& ctx) {
        ASSERT_EQ(h.init(ctx), PTL_INIT_OK);
        h.post(ctx, cmd);
    });
    sys.run_until(Time::max());
    p.rethrow_if_failed();
}

TEST(PortalsViolations, TxIdOutsideThePoolPanics) {
    system::System sys(ptl::spec(1));
    post_after_init(sys, {PTL_CMD_TX, 256, 0, 0, 0, 0, 0, 0});
    expect_panic(sys, 0, "TX command: pending id outside the TX pool: 256");
}

TEST(PortalsViolations, TxIdAlreadyInUsePanics) {
    system::System sys(ptl::spec(2));
    ptl::PortalsHost h(sys, 0);
    host::Process p(sys.host_cpu(0), "bad", [&](host::ProcessContext& ctx) {
        ASSERT_EQ(h.init(ctx), PTL_INIT_OK);
        h.tx(ctx, 3, 1, 0x1000, 1 << 20);  // node 1 never initializes: the message stays in flight
        h.tx(ctx, 3, 1, 0x1000, 10);
    });
    sys.run_until(Time::max());
    p.rethrow_if_failed();
    expect_panic(sys, 0, "TX command: pending already in use: id 3");
}

TEST(PortalsViolations, ReleaseOfAPendingNotDonePanics) {
    system::System sys(ptl::spec(1));
    post_after_init(sys, {PTL_CMD_RELEASE, 300, 0, 0, 0, 0, 0, 0});
    expect_panic(sys, 0, "RELEASE of a pending that is not done: id 300");
}

TEST(PortalsViolations, UnknownCommandPanics) {
    system::System sys(ptl::spec(1));
    post_after_init(sys, {99, 0, 0, 0, 0, 0, 0, 0});
    expect_panic(sys, 0, "unknown mailbox command: op 99");
}

TEST(PortalsInit, EventQueueMustBeAPowerOfTwoLargerThanAllPendings) {
    system::System sys(ptl::spec(1));
    ptl::PortalsHost h(sys, 0);
    std::vector<uint32_t> status;
    host::Process p(sys.host_cpu(0), "init", [&](host::ProcessContext& ctx) {
        for (uint32_t entries : {1000u, 1024u, 0u, 4096u, 2048u}) status.push_back(h.init(ctx, entries));
    });
    sys.run_until(Time::max());
    p.rethrow_if_failed();
    // 1,274 pendings: 1000 is not a power of two, 1024 is too small; 0 means the
    // harness's default (2048).
    EXPECT_EQ(status, (std::vector<uint32_t>{PTL_INIT_BAD_EQ, PTL_INIT_BAD_EQ, PTL_INIT_OK, PTL_INIT_OK, PTL_INIT_OK}));
    EXPECT_FALSE(sys.nic(0).faulted());
}

TEST(PortalsInit, MessagesArrivingBeforeInitWaitInTheEngine) {
    system::System sys(ptl::spec(2));
    auto want = ptl::put_pattern(sys, 0, 0x100001, 5000, 3);
    NodeScript tx, rx;
    tx.sends.push_back({1, 0, 0x100001, 5000, {}, {}});
    rx.start_delay = Time::us(200);  // long after the message arrived
    rx.expect_rx = 1;
    rx.place = [](const Incoming&) { return ptl::Placement{0x300003, 5000, {}}; };
    auto r = ptl::run(sys, {{0, &tx}, {1, &rx}});
    EXPECT_EQ(r.hosts[1]->niccb(ptl::kHostInterrupts), 2u) << "INIT's result and NEW_MSG share one interrupt";
    ASSERT_TRUE(rx.finished);
    EXPECT_GE(rx.received.at(0).announced, Time::us(200));
    EXPECT_EQ(ptl::read(sys, 1, 0x300003, 5000), want);
}

}  // namespace
}  // namespace niclab::test
