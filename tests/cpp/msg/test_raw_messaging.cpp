// The raw messaging check of the SeaStar node: a host process on one node sends a
// message through mailbox -> TX DMA -> network -> RX DMA -> host memory of another
// node, whose host process posted a buffer; every byte is compared. Sizes from 0 to
// 8 MB, at unaligned host addresses, on a direct cable and across a 4x4x4 mesh.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "niclab/systems/seastar/seastar.hpp"
#include "niclab/fw/hw.h"
#include "niclab/fw/raw_msg.h"
#include "niclab/host/process.hpp"
#include "niclab/systems/seastar/raw_nic.hpp"
#include "niclab/system/system.hpp"
#include "test_support.hpp"

namespace niclab::test {
namespace {

std::string firmware() { return std::string(NICLAB_FIRMWARE_DIR) + "/examples/raw_msg.elf"; }

system::SystemSpec spec_for(uint32_t nodes, nlohmann::json topology) {
    system::SystemSpec s;
    s.nodes = nodes;
    s.topology = std::move(topology);
    s.firmware = {firmware()};
    return s;
}


struct Transfer {
    seastar::RawResult sent, received;
};

// Sends `length` bytes from node src (host address src_addr) to node dst (dst_addr).
Transfer transfer(system::System& sys, uint32_t src, uint32_t dst, uint32_t length, uint64_t src_addr,
                  uint64_t dst_addr) {
    auto data = pattern(length, length ^ src);
    sys.host_memory(src).write(src_addr, data);
    sys.host_memory(dst).fill(dst_addr, 0xEE, uint64_t(length) + 16);
    seastar::RawNic tx(seastar::seastar_nic(sys, src), sys.host_cpu(src));
    seastar::RawNic rx(seastar::seastar_nic(sys, dst), sys.host_cpu(dst));
    Transfer t;
    host::Process receiver(sys.host_cpu(dst), "receiver", [&](host::ProcessContext& ctx) {
        rx.post_receive(ctx, dst_addr, length, 2);
        t.received = rx.wait(ctx);
    });
    host::Process sender(sys.host_cpu(src), "sender", [&](host::ProcessContext& ctx) {
        tx.send(ctx, dst, src_addr, length, 1);
        t.sent = tx.wait(ctx);
    });
    sys.run_until(Time::max());
    receiver.rethrow_if_failed();
    sender.rethrow_if_failed();
    EXPECT_TRUE(receiver.done() && sender.done()) << "transfer of " << length << " bytes did not finish";
    std::vector<uint8_t> got(length + 16);
    sys.host_memory(dst).read(dst_addr, got);
    EXPECT_TRUE(std::equal(data.begin(), data.end(), got.begin())) << length << " bytes differ";
    for (uint32_t i = 0; i < 16; ++i) EXPECT_EQ(got[length + i], 0xEE) << "written past the buffer";
    return t;
}

class RawMessaging : public ::testing::TestWithParam<uint32_t> {};

TEST_P(RawMessaging, DirectCableMovesEveryByte) {
    system::System sys(spec_for(2, nullptr));
    uint32_t length = GetParam();
    Transfer t = transfer(sys, 0, 1, length, 0x100003, 0x2000005);
    EXPECT_EQ(t.sent.op, RAW_RES_SENT);
    EXPECT_EQ(t.sent.status, NICLAB_DMA_OK);
    EXPECT_EQ(t.received.op, RAW_RES_RECEIVED);
    EXPECT_EQ(t.received.status, NICLAB_DMA_OK);
    EXPECT_EQ(t.received.bytes, length);
    EXPECT_EQ(t.received.src, 0u);
    EXPECT_EQ(t.received.tag, 2u);
}

INSTANTIATE_TEST_SUITE_P(Sizes, RawMessaging,
                         ::testing::Values(0u, 1u, 3u, 12u, 63u, 64u, 65u, 1000u, 4103u, 65549u, (1u << 20) + 5,
                                           8u << 20));

TEST(RawMessagingMesh, AcrossA4x4x4MeshBetweenFarCorners) {
    system::System sys(spec_for(64, {{"kind", "mesh"}, {"dims", {4, 4, 4}}}));
    for (uint32_t length : {0u, 7u, 4099u, (8u << 20) - 1}) {
        Transfer t = transfer(sys, 0, 63, length, 0x4001, 0x800007);
        EXPECT_EQ(t.received.status, NICLAB_DMA_OK) << length;
        EXPECT_EQ(t.received.bytes, length);
        EXPECT_EQ(t.received.src, 0u);
    }
    EXPECT_EQ(sys.network()->topology().hop_count(0, 63), 9u);
}

TEST(RawMessagingMesh, SendTakesLongerAcrossMoreHops) {
    system::System near_sys(spec_for(64, {{"kind", "mesh"}, {"dims", {4, 4, 4}}}));
    system::System far_sys(spec_for(64, {{"kind", "mesh"}, {"dims", {4, 4, 4}}}));
    Transfer near = transfer(near_sys, 0, 1, 8, 0x1000, 0x2000);
    Transfer far = transfer(far_sys, 0, 63, 8, 0x1000, 0x2000);
    EXPECT_GT(far.received.when, near.received.when);
}

}  // namespace
}  // namespace niclab::test
