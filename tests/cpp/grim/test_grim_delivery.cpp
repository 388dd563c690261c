// GRIM end to end on two LANai 9 nodes: active messages and RM-P writes of many sizes
// arrive byte for byte, in order, exactly once; the firmware's counters agree.
#include "grim_test_support.hpp"

#include "niclab/fw/grim_fw.h"

namespace niclab::grim {
namespace {

using namespace test;

constexpr uint64_t kSrc = 0x1000'0000, kDst = 0x2000'0000, kNotify = 0x2FFF'0000;

TEST(GrimDelivery, ActiveMessagesArriveInOrderWithTheirArgumentsAndBytes) {
    system::System sys(spec());
    const std::vector<uint32_t> sizes = {0, 1, 3, 4, 5, 31, 32, 33, 63, 64, 65, 1000, 4096, 4097, 20000, GRIM_MTU};
    niclab::test::TestProcesses procs;
    uint32_t got = 0;
    procs.spawn(sys.host_cpu(0), "sender", [&](host::ProcessContext& ctx) {
        Endpoint& ep = endpoint(sys, 0);
        const uint32_t h = ep.register_handler("check", {});
        for (uint32_t k = 0; k < sizes.size(); ++k) {
            sys.host_memory(0).write(kSrc, payload(sizes[k], k));
            ep.am_send(ctx, 1, h, {k, sizes[k], 0xA5A5A5A5u, 0xFFFFFFFFu - k}, kSrc, sizes[k]);
        }
    });
    procs.spawn(sys.host_cpu(1), "receiver", [&](host::ProcessContext& ctx) {
        Endpoint& ep = endpoint(sys, 1);
        ep.register_handler("check", [&](host::ProcessContext&, const ActiveMessage& m) {
            ASSERT_LT(got, sizes.size());
            EXPECT_EQ(m.src_node, 0u);
            EXPECT_EQ(m.args[0], got) << "out of order";
            EXPECT_EQ(m.args[1], sizes[got]);
            EXPECT_EQ(m.args[2], 0xA5A5A5A5u);
            EXPECT_EQ(m.args[3], 0xFFFFFFFFu - got);
            ASSERT_EQ(m.bytes, sizes[got]);
            EXPECT_EQ(read(sys, 1, m.payload_addr, m.bytes), payload(m.bytes, got)) << "message " << got;
            ++got;
        });
        ep.wait(ctx, [&] { return got == sizes.size(); });
    });
    sys.run_for(Time::ms(20));
    procs.rethrow_failures();
    EXPECT_EQ(got, sizes.size());
    Endpoint& a = endpoint(sys, 0);
    Endpoint& b = endpoint(sys, 1);
    EXPECT_EQ(a.counter("sent"), sizes.size());
    EXPECT_EQ(a.counter("acks_received"), sizes.size());
    EXPECT_EQ(b.counter("received"), sizes.size());
    EXPECT_EQ(b.counter("am_delivered"), sizes.size());
    EXPECT_EQ(b.counter("acks_sent"), sizes.size());
    EXPECT_EQ(a.counter("retransmits") + b.counter("nacks_sent") + b.counter("bad_messages"), 0u);
}

TEST(GrimDelivery, RmpWritesLandAtThePhysicalAddressThenTheNotification) {
    system::System sys(spec());
    const std::vector<uint32_t> sizes = {4, 7, 64, 1024, 60000, GRIM_MTU, 12};
    niclab::test::TestProcesses procs;
    sys.host_memory(1).fill(kDst, 0xEE, 70000);
    procs.spawn(sys.host_cpu(0), "writer", [&](host::ProcessContext& ctx) {
        Endpoint& ep = endpoint(sys, 0);
        for (uint32_t k = 0; k < sizes.size(); ++k) {
            sys.host_memory(0).write(kSrc, payload(sizes[k], k));
            ep.rm_write_p(ctx, 1, kDst, kSrc, sizes[k], kNotify, k + 1);
            // The next write goes only when the target has checked this one.
            ep.wait(ctx, [&] { return read(sys, 0, kNotify, 4) == std::vector<uint8_t>{uint8_t(k + 1), 0, 0, 0}; });
        }
    });
    procs.spawn(sys.host_cpu(1), "target", [&](host::ProcessContext& ctx) {
        Endpoint& ep = endpoint(sys, 1);
        for (uint32_t k = 0; k < sizes.size(); ++k) {
            ep.wait(ctx, [&] { return read(sys, 1, kNotify, 4) == std::vector<uint8_t>{uint8_t(k + 1), 0, 0, 0}; });
            ASSERT_EQ(read(sys, 1, kDst, sizes[k]), payload(sizes[k], k)) << "write " << k;
            // Bytes past the block are untouched (the payload correction trims the pad).
            if (k == 0) {
                EXPECT_EQ(read(sys, 1, kDst + sizes[k], 16), std::vector<uint8_t>(16, 0xEE));
            }
            ep.rm_write_p(ctx, 0, kNotify, kSrc, 0, kNotify, k + 1);  // a zero-byte write: notification only
        }
    });
    sys.run_for(Time::ms(50));
    procs.rethrow_failures();
    EXPECT_EQ(endpoint(sys, 1).counter("rm_delivered"), sizes.size());
    EXPECT_EQ(endpoint(sys, 0).counter("rm_delivered"), sizes.size());
}

TEST(GrimDelivery, AStreamOfLargeRmpBlocksWrapsEveryRingAndStillArrivesWhole) {
    system::System sys(spec());
    constexpr uint32_t kBlocks = 40, kBytes = 60000;
    niclab::test::TestProcesses procs;
    procs.spawn(sys.host_cpu(0), "writer", [&](host::ProcessContext& ctx) {
        Endpoint& ep = endpoint(sys, 0);
        for (uint32_t k = 0; k < kBlocks; ++k) {
            sys.host_memory(0).write(kSrc + uint64_t(k) * kBytes, payload(kBytes, k));
            ep.rm_write_p(ctx, 1, kDst + uint64_t(k) * kBytes, kSrc + uint64_t(k) * kBytes, kBytes, kNotify, k + 1);
        }
    });
    procs.spawn(sys.host_cpu(1), "target", [&](host::ProcessContext& ctx) {
        endpoint(sys, 1).wait(ctx, [&] { return read(sys, 1, kNotify, 1)[0] == kBlocks; });
    });
    sys.run_for(Time::ms(100));
    procs.rethrow_failures();
    EXPECT_EQ(endpoint(sys, 1).counter("received"), kBlocks);
    // 40 blocks of 60 KB lap the 1.5 MB receive ring and the 256 KB send queue.
    EXPECT_GT(40u * 60000u, lanai(sys, 1).net_recv().ring_bytes());
    for (uint32_t k = 0; k < kBlocks; ++k)
        ASSERT_EQ(read(sys, 1, kDst + uint64_t(k) * kBytes, kBytes), payload(kBytes, k)) << "block " << k;
}

}  // namespace
}  // namespace niclab::grim
