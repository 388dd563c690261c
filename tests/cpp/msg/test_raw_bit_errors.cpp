// Link bit errors under the raw_msg firmware (seed 001 §2): with link-level retry the
// 16-bit link CRC catches every corrupted copy and the messages arrive intact; with
// retry off the corrupted packets reach the receiving NIC, and its end-to-end CRC-32
// flags exactly the messages that were damaged. Fixed seeds: deterministic.
#include <gtest/gtest.h>

#include "niclab/fw/hw.h"
#include "niclab/fw/raw_msg.h"
#include "raw_test_support.hpp"

namespace niclab::test {
namespace {

// 1e-5 per bit: about one payload bit in 200 packets is flipped on each link.
constexpr int64_t kBitErrorsPer1e15 = 10'000'000'000;
constexpr uint32_t kMessages = 8, kLength = 16 * 1024;

nlohmann::json noisy(bool retry) {
    return {{"net.bit_errors_per_1e15", kBitErrorsPer1e15}, {"net.link_retry", retry ? 1 : 0}};
}

TEST(RawMsgBitErrors, LinkRetryDeliversEveryMessageIntact) {
    system::System sys(raw::spec_for(2, nullptr, 7, noisy(true)));
    raw::Stream s = raw::stream(sys, 0, 1, kMessages, kLength);
    ASSERT_EQ(s.received.size(), kMessages);
    for (uint32_t i = 0; i < kMessages; ++i) {
        EXPECT_EQ(s.received[i].status, NICLAB_DMA_OK) << i;
        EXPECT_EQ(s.received[i].bytes, kLength) << i;
        EXPECT_TRUE(s.intact[i]) << "message " << i;
    }
    EXPECT_GT(sys.network()->stats().retries, 0u) << "errors happened and were retried";
    EXPECT_EQ(sys.network()->stats().corrupted_delivered, 0u);
    EXPECT_EQ(seastar::seastar_nic(sys, 1).rx_dma().crc_errors(), 0u);
}

TEST(RawMsgBitErrors, WithoutRetryTheEndToEndCrcFlagsExactlyTheDamagedMessages) {
    system::System sys(raw::spec_for(2, nullptr, 7, noisy(false)));
    raw::Stream s = raw::stream(sys, 0, 1, kMessages, kLength);
    ASSERT_EQ(s.received.size(), kMessages);
    uint32_t crc_errors = 0;
    for (const seastar::RawResult& r : s.received) {
        ASSERT_LT(r.tag, kMessages);
        EXPECT_EQ(r.bytes, kLength);
        EXPECT_TRUE(r.status == NICLAB_DMA_OK || r.status == NICLAB_DMA_CRC_ERROR) << r.status;
        EXPECT_EQ(r.status == NICLAB_DMA_OK, bool(s.intact[r.tag])) << "message " << r.tag;
        crc_errors += r.status == NICLAB_DMA_CRC_ERROR;
    }
    EXPECT_GT(crc_errors, 0u) << "the end-to-end CRC caught some damage";
    EXPECT_EQ(sys.network()->stats().retries, 0u);
    EXPECT_GT(sys.network()->stats().corrupted_delivered, 0u);
    EXPECT_EQ(seastar::seastar_nic(sys, 1).rx_dma().crc_errors(), crc_errors);
    for (const seastar::RawResult& r : s.sent) EXPECT_EQ(r.status, NICLAB_DMA_OK) << "the sender cannot tell";
}

TEST(RawMsgBitErrors, ADifferentSeedDrawsDifferentErrors) {
    system::System a(raw::spec_for(2, nullptr, 7, noisy(true)));
    system::System b(raw::spec_for(2, nullptr, 8, noisy(true)));
    raw::stream(a, 0, 1, kMessages, kLength);
    raw::stream(b, 0, 1, kMessages, kLength);
    EXPECT_GT(a.network()->stats().retries, 0u);
    EXPECT_GT(b.network()->stats().retries, 0u);
    EXPECT_NE(a.network()->stats().retries, b.network()->stats().retries);
}

}  // namespace
}  // namespace niclab::test
