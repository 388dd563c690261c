// Portals put and get through the whole stack: the host library and the SeaStar NAL
// in the host kernel, the C Portals firmware on the NIC, the DMA engines and the
// network. Every byte arrives, at odd host addresses, from 0 B to 8 MB, and each side
// sees the Portals 3.3 events in order.
#include "portals_test_support.hpp"

namespace niclab::test::ptl {
namespace {

constexpr ptl_pt_index_t kPortal = 4;
constexpr ptl_match_bits_t kBits = 0x1234'5678'9abc'def0ull;
constexpr uint64_t kSrc = 0x100003, kDst = 0x2000005;

class PutGet : public ::testing::TestWithParam<uint32_t> {};

TEST_P(PutGet, PutMovesEveryByteAndPostsTheEvents) {
    const uint32_t n = GetParam();
    Cluster c(portals_spec(2));
    auto data = pattern(n, n + 7);
    c.sys.host_memory(0).write(kSrc, data);
    c.sys.host_memory(1).fill(kDst, 0xEE, uint64_t(n) + 16);
    ptl_event_t put_end, send_end;
    c.spawn(1, "target", [&](host::ProcessContext& ctx, Ni& ni) {
        auto eq = ni.eq_alloc(ctx, 16);
        auto me = ni.me_attach(ctx, kPortal, {PTL_NID_ANY, PTL_PID_ANY}, kBits, 0, PTL_UNLINK, PTL_INS_AFTER);
        ni.md_attach(ctx, me, md(kDst, n, PTL_MD_OP_PUT, eq), PTL_UNLINK);
        auto start = expect_event(ctx, ni, eq, PTL_EVENT_PUT_START);
        EXPECT_EQ(start.rlength, n);
        put_end = expect_event(ctx, ni, eq, PTL_EVENT_PUT_END);
    });
    c.spawn(0, "initiator", [&](host::ProcessContext& ctx, Ni& ni) {
        ctx.sleep_for(Time::us(5));  // the target's match entry is in place by then
        auto eq = ni.eq_alloc(ctx, 16);
        auto h = ni.md_bind(ctx, md(kSrc, n, 0, eq), PTL_UNLINK);
        ni.put(ctx, h, PTL_NOACK_REQ, {1, 0}, kPortal, 0, kBits, 0, 0xfeedull);
        expect_event(ctx, ni, eq, PTL_EVENT_SEND_START);
        send_end = expect_event(ctx, ni, eq, PTL_EVENT_SEND_END);
    });
    c.run();
    EXPECT_TRUE(bytes_equal(c.sys.host_memory(1), kDst, data)) << n << " bytes differ";
    EXPECT_TRUE(bytes_equal(c.sys.host_memory(1), kDst + n, std::vector<uint8_t>(16, 0xEE))) << "written past the MD";
    EXPECT_EQ(put_end.mlength, n);
    EXPECT_EQ(put_end.initiator, (ptl_process_id_t{0, 0}));
    EXPECT_EQ(put_end.match_bits, kBits);
    EXPECT_EQ(put_end.hdr_data, 0xfeedull);
    EXPECT_EQ(put_end.pt_index, kPortal);
    EXPECT_GT(put_end.time, Time{});
}

TEST_P(PutGet, GetBringsBackEveryByte) {
    const uint32_t n = GetParam();
    Cluster c(portals_spec(2));
    auto data = pattern(n, n + 11);
    c.sys.host_memory(1).write(kSrc, data);  // the target's exposed buffer
    c.sys.host_memory(0).fill(kDst, 0xEE, uint64_t(n) + 16);
    ptl_event_t reply_end, get_end;
    c.spawn(1, "target", [&](host::ProcessContext& ctx, Ni& ni) {
        auto eq = ni.eq_alloc(ctx, 16);
        auto me = ni.me_attach(ctx, kPortal, {0, 0}, kBits, 0, PTL_UNLINK, PTL_INS_AFTER);
        ni.md_attach(ctx, me, md(kSrc, n, PTL_MD_OP_GET, eq), PTL_UNLINK);
        expect_event(ctx, ni, eq, PTL_EVENT_GET_START);
        get_end = expect_event(ctx, ni, eq, PTL_EVENT_GET_END);
    });
    c.spawn(0, "initiator", [&](host::ProcessContext& ctx, Ni& ni) {
        ctx.sleep_for(Time::us(5));
        auto eq = ni.eq_alloc(ctx, 16);
        auto h = ni.md_bind(ctx, md(kDst, n, 0, eq), PTL_UNLINK);
        ni.get(ctx, h, {1, 0}, kPortal, 0, kBits, 0);
        ptl_event_t ev;
        do {  // a get's initiator may also see send events for its request
            ni.eq_wait(ctx, eq, ev);
        } while (ev.type != PTL_EVENT_REPLY_END);
        reply_end = ev;
    });
    c.run();
    EXPECT_TRUE(bytes_equal(c.sys.host_memory(0), kDst, data)) << n << " bytes differ";
    EXPECT_TRUE(bytes_equal(c.sys.host_memory(0), kDst + n, std::vector<uint8_t>(16, 0xEE)));
    EXPECT_EQ(reply_end.mlength, n);
    EXPECT_EQ(get_end.mlength, n);
}

INSTANTIATE_TEST_SUITE_P(Sizes, PutGet,
                         ::testing::Values(0u, 1u, 7u, 12u, 13u, 63u, 64u, 65u, 1000u, 4099u, 65549u, (1u << 20) + 5,
                                           (8u << 20) - 3, 8u << 20));

// Seed 000 §5.2: a generic-mode receive normally takes two host interrupts (new
// header, then completion); a payload of up to 12 bytes travels in the header packet
// and takes one. Counted at the target, for one put.
uint64_t target_interrupts(const std::string& image, uint32_t n) {
    Cluster c(portals_spec(2, nullptr, image));
    c.sys.host_memory(0).write(kSrc, pattern(n, 3));
    uint64_t before = 0, after = 0;
    c.spawn(1, "target", [&](host::ProcessContext& ctx, Ni& ni) {
        auto eq = ni.eq_alloc(ctx, 16);
        auto me = ni.me_attach(ctx, kPortal, {PTL_NID_ANY, PTL_PID_ANY}, kBits, 0, PTL_UNLINK, PTL_INS_AFTER);
        ni.md_attach(ctx, me, md(kDst, n, PTL_MD_OP_PUT, eq), PTL_UNLINK);
        ctx.sleep_for(Time::us(20));  // the start-up interrupt (INIT's result) is over
        before = dynamic_cast<seastar::SsNal&>(ni.nal()).counters().interrupts;
        expect_event(ctx, ni, eq, PTL_EVENT_PUT_START);
        expect_event(ctx, ni, eq, PTL_EVENT_PUT_END);
        ctx.sleep_for(Time::us(50));
        after = dynamic_cast<seastar::SsNal&>(ni.nal()).counters().interrupts;
    });
    c.spawn(0, "initiator", [&](host::ProcessContext& ctx, Ni& ni) {
        ctx.sleep_for(Time::us(30));
        auto h = ni.md_bind(ctx, md(kSrc, n, 0, PTL_EQ_NONE), PTL_UNLINK);
        ni.put(ctx, h, PTL_NOACK_REQ, {1, 0}, kPortal, 0, kBits, 0);
    });
    c.run();
    EXPECT_TRUE(bytes_equal(c.sys.host_memory(1), kDst, pattern(n, 3)));
    return after - before;
}

TEST(VerySmallMessages, OneInterruptUpToTwelveBytesTwoAbove) {
    EXPECT_EQ(target_interrupts("portals", 0), 1u);
    EXPECT_EQ(target_interrupts("portals", 1), 1u);
    EXPECT_EQ(target_interrupts("portals", 12), 1u);
    EXPECT_EQ(target_interrupts("portals", 13), 2u);
    EXPECT_EQ(target_interrupts("portals", 4096), 2u);
}

TEST(VerySmallMessages, WithoutTheOptimizationEveryReceiveTakesTwo) {
    EXPECT_EQ(target_interrupts("portals_novsmall", 0), 2u);
    EXPECT_EQ(target_interrupts("portals_novsmall", 8), 2u);
    EXPECT_EQ(target_interrupts("portals_novsmall", 13), 2u);
}

}  // namespace
}  // namespace niclab::test::ptl
