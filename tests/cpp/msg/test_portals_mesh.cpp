// Many-to-one and all-to-all Portals puts on a 4x4x4 mesh, every byte checked, and
// resource exhaustion: a burst larger than the NIC's RX pending pool ends in the
// firmware's panic report, never in a silent hang (seed 000 §4.3.3).
#include "portals_test_support.hpp"

#include "niclab/core/fault.hpp"

namespace niclab::test::ptl {
namespace {

constexpr ptl_pt_index_t kPortal = 1;
constexpr uint64_t kSrc = 0x10003, kDst = 0x1000001;

nlohmann::json mesh444() { return {{"kind", "mesh"}, {"dims", {4, 4, 4}}}; }

// Every sender puts `n` bytes into its own slice of the target's buffer: one match
// entry, a remotely managed MD, the remote offset says where.
TEST(PortalsMesh, ManyToOneEveryByte) {
    constexpr uint32_t kNodes = 64, n = 1031;
    const uint64_t stride = 2048;
    Cluster c(portals_spec(kNodes, mesh444()));
    c.sys.host_memory(0).fill(kDst, 0xEE, stride * kNodes);
    for (uint32_t s = 1; s < kNodes; ++s) c.sys.host_memory(s).write(kSrc, pattern(n, s));
    c.spawn(0, "target", [&](host::ProcessContext& ctx, Ni& ni) {
        auto eq = ni.eq_alloc(ctx, 256);
        auto me = ni.me_attach(ctx, kPortal, {PTL_NID_ANY, PTL_PID_ANY}, 0, 0, PTL_RETAIN, PTL_INS_AFTER);
        ni.md_attach(ctx, me, md(kDst, stride * kNodes, PTL_MD_OP_PUT | PTL_MD_MANAGE_REMOTE, eq), PTL_RETAIN);
        for (uint32_t done = 0; done < kNodes - 1;) {
            ptl_event_t ev = ni.eq_wait(ctx, eq);
            if (ev.type == PTL_EVENT_PUT_END) {
                EXPECT_EQ(ev.offset, ev.initiator.nid * stride);
                EXPECT_EQ(ev.mlength, n);
                ++done;
            }
        }
    });
    for (uint32_t s = 1; s < kNodes; ++s)
        c.spawn(s, "sender", [&, s](host::ProcessContext& ctx, Ni& ni) {
            ctx.sleep_for(Time::us(5));
            auto h = ni.md_bind(ctx, md(kSrc, n, 0, PTL_EQ_NONE), PTL_UNLINK);
            ni.put(ctx, h, PTL_NOACK_REQ, {0, 0}, kPortal, 0, 0, s * stride);
        });
    c.run();
    for (uint32_t s = 1; s < kNodes; ++s) {
        EXPECT_TRUE(bytes_equal(c.sys.host_memory(0), kDst + s * stride, pattern(n, s))) << "from node " << s;
        EXPECT_TRUE(bytes_equal(c.sys.host_memory(0), kDst + s * stride + n, std::vector<uint8_t>(8, 0xEE)));
    }
}

// Every node puts a distinct message to every other node; each receiver has one
// match entry per sender (match bits = the sender's nid).
TEST(PortalsMesh, AllToAllEveryByte) {
    constexpr uint32_t kNodes = 64, n = 333;
    const uint64_t stride = 512;
    Cluster c(portals_spec(kNodes, mesh444()));
    auto payload = [](uint32_t from, uint32_t to) { return pattern(n, from * 131 + to); };
    for (uint32_t i = 0; i < kNodes; ++i) {
        for (uint32_t j = 0; j < kNodes; ++j) c.sys.host_memory(i).write(kSrc + j * stride, payload(i, j));
        c.sys.host_memory(i).fill(kDst, 0xEE, stride * kNodes);
    }
    for (uint32_t i = 0; i < kNodes; ++i)
        c.spawn(i, "rank", [&, i](host::ProcessContext& ctx, Ni& ni) {
            auto eq = ni.eq_alloc(ctx, 1024);
            for (uint32_t j = 0; j < kNodes; ++j) {
                if (j == i) continue;
                auto me = ni.me_attach(ctx, kPortal, {j, 0}, j, 0, PTL_UNLINK, PTL_INS_AFTER);
                ni.md_attach(ctx, me, md(kDst + j * stride, n, PTL_MD_OP_PUT, eq, 1), PTL_UNLINK);
            }
            ctx.sleep_for(Time::us(50));  // every rank has its entries up
            for (uint32_t j = 0; j < kNodes; ++j) {
                if (j == i) continue;
                auto h = ni.md_bind(ctx, md(kSrc + j * stride, n, 0, PTL_EQ_NONE), PTL_UNLINK);
                ni.put(ctx, h, PTL_NOACK_REQ, {j, 0}, kPortal, 0, i, 0);
            }
            for (uint32_t got = 0; got < kNodes - 1;)
                if (ni.eq_wait(ctx, eq).type == PTL_EVENT_PUT_END) ++got;
        });
    c.run();
    for (uint32_t i = 0; i < kNodes; ++i)
        for (uint32_t j = 0; j < kNodes; ++j)
            if (i != j) {
                EXPECT_TRUE(bytes_equal(c.sys.host_memory(i), kDst + j * stride, payload(j, i))) << j << "->" << i;
            }
}

// portals_tiny has 4 sources and 8 RX pendings. A burst at one node keeps more
// messages waiting for its host (each header needs an interrupt of at least 2 us
// before the host can answer) than the pools hold. Built to panic
// (portals_tiny_panic) the node panics with a report naming the pool, the function
// and the line, and the others go on; with go-back-N (portals_tiny) every put arrives.
struct Burst {
    uint32_t senders, messages_each, bytes;
    const char* pool;
};

class PortalsExhaustion : public ::testing::TestWithParam<Burst> {};

// Every node but 0 puts its burst at node 0, back to back.
void spawn_senders(Cluster& c, const Burst& b) {
    for (uint32_t s = 1; s <= b.senders; ++s)
        c.spawn(s, "sender", [&b](host::ProcessContext& ctx, Ni& ni) {
            ctx.sleep_for(Time::us(5));
            auto h = ni.md_bind(ctx, md(kSrc, b.bytes, 0, PTL_EQ_NONE), PTL_RETAIN);
            for (uint32_t m = 0; m < b.messages_each; ++m) ni.put(ctx, h, PTL_NOACK_REQ, {0, 0}, kPortal, 0, 0, 0);
        });
}

TEST_P(PortalsExhaustion, BurstPanicsTheNodeWithAReport) {
    const Burst b = GetParam();
    const uint32_t nodes = b.senders + 1;
    Cluster c(portals_spec(nodes, {{"kind", "mesh"}, {"dims", {nodes, 1, 1}}}, "portals_tiny_panic"));
    c.spawn(0, "target", [&](host::ProcessContext& ctx, Ni& ni) {
        auto me = ni.me_attach(ctx, kPortal, {PTL_NID_ANY, PTL_PID_ANY}, 0, 0, PTL_RETAIN, PTL_INS_AFTER);
        ni.md_attach(ctx, me, md(kDst, 1 << 20, PTL_MD_OP_PUT | PTL_MD_TRUNCATE, PTL_EQ_NONE), PTL_RETAIN);
    });
    spawn_senders(c, b);
    auto r = c.sys.run_until(Time::ms(10));
    ASSERT_EQ(r.faulted_nodes, std::vector<size_t>{0});
    auto fault = c.sys.nic(0).fault();
    ASSERT_TRUE(fault.has_value());
    EXPECT_EQ(fault->info().kind, core::FaultKind::Panic);
    const std::string msg = fault->what();
    EXPECT_NE(msg.find(std::string(b.pool) + " pool exhausted"), std::string::npos) << msg;
    EXPECT_NE(msg.find(".c:"), std::string::npos) << msg;  // the firmware source line of the call
}

TEST_P(PortalsExhaustion, BurstIsCarriedByGoBackN) {
    const Burst b = GetParam();
    const uint32_t nodes = b.senders + 1, total = b.senders * b.messages_each;
    Cluster c(portals_spec(nodes, {{"kind", "mesh"}, {"dims", {nodes, 1, 1}}}, "portals_tiny"));
    std::map<uint32_t, uint32_t> from;  // PUT_ENDs by initiator
    c.spawn(0, "target", [&](host::ProcessContext& ctx, Ni& ni) {
        auto eq = ni.eq_alloc(ctx, 1024);
        auto me = ni.me_attach(ctx, kPortal, {PTL_NID_ANY, PTL_PID_ANY}, 0, 0, PTL_RETAIN, PTL_INS_AFTER);
        ni.md_attach(ctx, me, md(kDst, 1 << 20, PTL_MD_OP_PUT | PTL_MD_TRUNCATE, eq), PTL_RETAIN);
        for (uint32_t got = 0; got < total;) {
            ptl_event_t ev = ni.eq_wait(ctx, eq);
            if (ev.type == PTL_EVENT_PUT_END) ++got, ++from[ev.initiator.nid];
        }
    });
    spawn_senders(c, b);
    auto r = c.sys.run_until(Time::ms(10));
    EXPECT_TRUE(r.faulted_nodes.empty());
    for (uint32_t s = 1; s < nodes; ++s) EXPECT_EQ(from[s], b.messages_each) << "puts from node " << s;
    auto counters = c.sys.counters(0);
    EXPECT_GT(counters.find("portals.rx_drops").value_or(0), 0u) << "the pools did run out";
    EXPECT_GT(counters.find("portals.nacks_sent").value_or(0), 0u);
}

INSTANTIATE_TEST_SUITE_P(Pools, PortalsExhaustion,
                         ::testing::Values(Burst{16, 1, 4096, "source"}, Burst{4, 8, 16, "RX pending"}),
                         [](const auto& info) { return info.param.senders == 16 ? "Sources" : "RxPendings"; });

}  // namespace
}  // namespace niclab::test::ptl
