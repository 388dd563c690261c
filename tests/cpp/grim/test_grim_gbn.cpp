// Go-back-N under receiver exhaustion (seed 004 §4.2.1): an endpoint whose queue is
// full makes its NI drop and NACK; the sender rolls back that destination and channel
// only and resends; everything arrives in order exactly once, with each data path. Determinism. A firmware
// fault names its function and line, and the System lives on.
#include "grim_test_support.hpp"

#include <cstddef>

#include "niclab/fw/grim_fw.h"
#include "niclab/fw/lanai.h"

namespace niclab::grim {
namespace {

using namespace test;

constexpr uint64_t kSrc = 0x1000'0000;

struct Tally {
    std::vector<uint32_t> order;  // args[0] of each message as its handler ran
};

// Node 0 sends `n` AMs of `bytes` to each receiver; node 1 has two queue slots and
// polls only after `late`; node 2 (if there) polls at once.
void exhaust(system::System& sys, uint32_t n, Time late, std::vector<Tally>& got, uint32_t bytes = 100) {
    niclab::test::TestProcesses procs;
    const uint32_t nodes = uint32_t(sys.node_count());
    got.assign(nodes, {});
    procs.spawn(sys.host_cpu(0), "sender", [&](host::ProcessContext& ctx) {
        Endpoint& ep = endpoint(sys, 0);
        const uint32_t h = ep.register_handler("count", {});
        for (uint32_t k = 0; k < n; ++k)
            for (uint32_t dst = 1; dst < nodes; ++dst) {
                sys.host_memory(0).write(kSrc, payload(bytes, k));
                ep.am_send(ctx, dst, h, {k, 0, 0, 0}, kSrc, bytes);
            }
    });
    for (uint32_t r = 1; r < nodes; ++r)
        procs.spawn(sys.host_cpu(r), "receiver", [&, r](host::ProcessContext& ctx) {
            Endpoint& ep = endpoint(sys, r);
            ep.register_handler("count", [&, r](host::ProcessContext&, const ActiveMessage& m) {
                EXPECT_EQ(read(sys, r, m.payload_addr, m.bytes), payload(bytes, m.args[0]));
                got[r].order.push_back(m.args[0]);
            });
            if (r == 1) ctx.sleep_for(late);
            ep.wait(ctx, [&] { return got[r].order.size() == n; });
        });
    sys.run_for(Time::ms(50));
    procs.rethrow_failures();
}

std::vector<uint32_t> iota(uint32_t n) {
    std::vector<uint32_t> v(n);
    for (uint32_t i = 0; i < n; ++i) v[i] = i;
    return v;
}

// Node 1 refused some of node 0's `n` messages (NACKs, resends) and yet took each once,
// in order.
void expect_in_order_once_after_nacks(system::System& sys, const std::vector<Tally>& got, uint32_t n) {
    EXPECT_EQ(got[1].order, iota(n));
    Endpoint& a = endpoint(sys, 0);
    Endpoint& b = endpoint(sys, 1);
    EXPECT_GT(b.counter("nacks_sent"), 0u);
    EXPECT_EQ(a.counter("nacks_received"), b.counter("nacks_sent"));
    EXPECT_GT(a.counter("retransmits"), 0u);
    // Every transmission was accepted once, refused with a NACK, or dropped behind one.
    EXPECT_EQ(a.counter("sent"), n + a.counter("retransmits"));
    EXPECT_EQ(a.counter("sent"), b.counter("received") + b.counter("nacks_sent") + b.counter("out_of_order"));
    EXPECT_EQ(b.counter("received"), n);
    EXPECT_EQ(b.counter("acks_sent"), n);
    EXPECT_EQ(a.counter("acks_received"), n);
}

TEST(GrimGoBackN, AFullEndpointQueueIsNackedAndEveryMessageArrivesInOrderOnce) {
    system::System sys(spec(2, {{"grim.am_slots", 2}}));
    std::vector<Tally> got;
    exhaust(sys, 30, Time::us(300), got);
    expect_in_order_once_after_nacks(sys, got, 30);
}

// Each data path of §5.5 with messages of three 4 KB packets: cut-through NIs send
// them in 1 KB segments as the host writes them and start delivering on the header;
// a message that finds the queue full waits whole for its NACK.
TEST(GrimGoBackN, EachDataPathDeliversEveryMessageInOrderOnceUnderExhaustion) {
    for (const char* image : {"grim", "grim_pipelined", "grim_cutthrough"}) {
        SCOPED_TRACE(image);
        system::System sys(spec(2, {{"grim.am_slots", 2}, {"grim.cut_through_segment_bytes", 1024}}, "grim-lanai9", image));
        std::vector<Tally> got;
        exhaust(sys, 20, Time::us(400), got, 9000);
        expect_in_order_once_after_nacks(sys, got, 20);
        EXPECT_EQ(endpoint(sys, 1).counter("am_delivered"), 20u);
        // Store-and-forward: one DMA of each message and one of the back count; cut-through
        // moves a message in pieces as its packets land.
        const uint64_t dmas = sys.hardware(1).counter("nic.host_dma_transfers").value_or(0);
        if (std::string(image) == "grim_cutthrough")
            EXPECT_GT(dmas, 40u);
        else
            EXPECT_EQ(dmas, 40u);
    }
}

TEST(GrimGoBackN, RollbackTouchesOnlyTheRefusingDestination) {
    system::System sys(spec(3, {{"grim.am_slots", 2}}));
    std::vector<Tally> got;
    exhaust(sys, 20, Time::us(400), got);
    EXPECT_EQ(got[1].order, iota(20));
    EXPECT_EQ(got[2].order, iota(20));
    Endpoint& a = endpoint(sys, 0);
    Endpoint& c = endpoint(sys, 2);
    EXPECT_GT(endpoint(sys, 1).counter("nacks_sent"), 0u);
    // Node 2 drained its queue: it refused nothing and saw nothing twice or early.
    EXPECT_EQ(c.counter("nacks_sent"), 0u);
    EXPECT_EQ(c.counter("out_of_order"), 0u);
    EXPECT_EQ(c.counter("received"), 20u);
    // Only node 1's messages went again.
    EXPECT_EQ(a.counter("retransmits"), endpoint(sys, 1).counter("nacks_sent") + endpoint(sys, 1).counter("out_of_order"));
}

TEST(GrimGoBackN, SameSpecAndSeedGiveTheSameRunToThePicosecond) {
    auto once = [] {
        system::System sys(spec(2, {{"grim.am_slots", 2}}));
        std::vector<Tally> got;
        exhaust(sys, 12, Time::us(150), got);
        std::vector<uint64_t> out = {uint64_t(sys.now().ps())};
        for (uint32_t n : {0u, 1u})
            for (const auto& c : Endpoint::counter_names()) out.push_back(endpoint(sys, n).counter(c.c_str()));
        out.push_back(sys.nic(0).cpu().instret());
        out.push_back(sys.nic(1).cpu().cycles());
        return out;
    };
    EXPECT_EQ(once(), once());
}

TEST(GrimFirmware, ABadSendQueueEntryIsAFirmwareFaultNamingItsFunctionAndLine) {
    system::System sys(spec());
    niclab::test::TestProcesses procs;
    procs.spawn(sys.host_cpu(0), "bad", [&](host::ProcessContext&) {
        Endpoint& ep = endpoint(sys, 0);
        LanaiNic& nic = lanai(sys, 0);
        // A header naming node 99, written past the library's checks.
        const uint32_t q = LANAI_SRAM_UNCACHED_BASE + Endpoint::kSendQueueOffset;
        nic.nic().poke32(q + 4, __builtin_bswap32(GRIM_W1(GRIM_T_AM, 0, 0, GRIM_ENDPOINT(0, 0))));
        nic.nic().poke32(q + 8, __builtin_bswap32(GRIM_W2(0, GRIM_ENDPOINT(99, 0))));
        nic.nic().poke32(ep.shared_address() + offsetof(grim_shared, lc) + offsetof(grim_lc, sq_back), 64);
        nic.nic().control().raise_external(NICLAB_IRQ_DOORBELL);
    });
    const auto r = sys.run_for(Time::us(200));
    procs.rethrow_failures();
    ASSERT_TRUE(sys.hardware(0).faulted());
    EXPECT_EQ(r.faulted_nodes, std::vector<size_t>{0});
    const std::string report = sys.hardware(0).fault_report();
    EXPECT_NE(report.find("bad destination endpoint"), std::string::npos) << report;
    EXPECT_NE(report.find("lc_send.c:"), std::string::npos) << report;
    EXPECT_NE(report.find("in lc_send+"), std::string::npos) << report;  // transmit() is inlined into it
    // The other node and the System go on.
    EXPECT_FALSE(sys.hardware(1).faulted());
    sys.run_for(Time::us(10));
}

}  // namespace
}  // namespace niclab::grim
