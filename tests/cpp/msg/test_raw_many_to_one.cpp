// Many-to-one with the raw_msg firmware on a 4x4x4 mesh: eight senders each send two
// 100 KB messages to node 0, which posted sixteen buffers. Node 0's ejection link is
// the bottleneck, so credit flow control backs traffic up through the mesh into the
// senders' TX engines; every message must still arrive intact, once, and each result
// must name the right buffer and source.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <vector>

#include "niclab/systems/seastar/seastar.hpp"
#include "niclab/fw/hw.h"
#include "niclab/fw/raw_msg.h"
#include "raw_test_support.hpp"

namespace niclab::test {
namespace {

constexpr uint32_t kLength = 100 * 1024;
constexpr uint32_t kPerSender = 2;
constexpr uint64_t kSrcAddr = 0x100003, kDstBase = 0x1000005, kStride = 0x20000;
const std::vector<uint32_t> kSenders = {1, 5, 16, 21, 42, 47, 58, 63};
const uint32_t kBuffers = uint32_t(kSenders.size()) * kPerSender;

uint32_t seed_of(uint32_t src, uint32_t k) { return src * 16 + k + 1; }

struct Outcome {
    std::vector<seastar::RawResult> received;           // node 0, in completion order
    std::vector<std::vector<seastar::RawResult>> sent;  // per sender
    std::vector<std::vector<uint8_t>> buffers;      // node 0's buffers (+16 guard bytes)
    bool finished = false;
    net::NetworkStats net;
    uint64_t in_flight = 0, rx_packets = 0;
    Time start, end;
};

Outcome run_many_to_one() {
    system::System sys(raw::spec_for(64, {{"kind", "mesh"}, {"dims", {4, 4, 4}}}));
    for (uint32_t i = 0; i < kBuffers; ++i) sys.host_memory(0).fill(kDstBase + i * kStride, 0xEE, kStride);
    std::vector<std::unique_ptr<seastar::RawNic>> nics;
    for (uint32_t s : kSenders) {
        for (uint32_t k = 0; k < kPerSender; ++k)
            sys.host_memory(s).write(kSrcAddr + k * kStride, raw::pattern(kLength, seed_of(s, k)));
        nics.push_back(std::make_unique<seastar::RawNic>(seastar::seastar_nic(sys, s), sys.host_cpu(s)));
    }
    seastar::RawNic rx(seastar::seastar_nic(sys, 0), sys.host_cpu(0));

    Outcome o;
    o.sent.resize(kSenders.size());
    o.start = sys.now();  // after the 64 firmware boots
    host::Process receiver(sys.host_cpu(0), "receiver", [&](host::ProcessContext& ctx) {
        for (uint32_t i = 0; i < kBuffers; ++i) rx.post_receive(ctx, kDstBase + i * kStride, kLength, i);
        for (uint32_t i = 0; i < kBuffers; ++i) o.received.push_back(rx.wait(ctx));
    });
    std::vector<std::unique_ptr<host::Process>> senders;
    for (size_t n = 0; n < kSenders.size(); ++n)
        senders.push_back(std::make_unique<host::Process>(
            sys.host_cpu(kSenders[n]), "sender", [&, n](host::ProcessContext& ctx) {
                for (uint32_t k = 0; k < kPerSender; ++k) nics[n]->send(ctx, 0, kSrcAddr + k * kStride, kLength, 10 + k);
                for (uint32_t k = 0; k < kPerSender; ++k) o.sent[n].push_back(nics[n]->wait(ctx));
            }));
    sys.run_until(Time::max());
    receiver.rethrow_if_failed();
    o.finished = receiver.done();
    for (auto& p : senders) {
        p->rethrow_if_failed();
        o.finished = o.finished && p->done();
    }
    for (uint32_t i = 0; i < kBuffers; ++i) {
        o.buffers.emplace_back(kLength + 16);
        sys.host_memory(0).read(kDstBase + i * kStride, o.buffers.back());
    }
    o.net = sys.network()->stats();
    o.in_flight = sys.network()->packets_in_flight();
    o.rx_packets = seastar::seastar_nic(sys, 0).rx_dma().packets_received();
    o.end = sys.now();
    return o;
}

// Which message (src, k) a buffer holds, or (0, ~0) for none.
std::pair<uint32_t, uint32_t> identify(const std::vector<uint8_t>& buffer) {
    for (uint32_t s : kSenders)
        for (uint32_t k = 0; k < kPerSender; ++k) {
            auto want = raw::pattern(kLength, seed_of(s, k));
            if (std::equal(want.begin(), want.end(), buffer.begin())) return {s, k};
        }
    return {0, ~0u};
}

class RawMsgManyToOne : public ::testing::Test {
protected:
    static void SetUpTestSuite() { outcome = std::make_unique<Outcome>(run_many_to_one()); }
    static void TearDownTestSuite() { outcome.reset(); }
    static std::unique_ptr<Outcome> outcome;
};
std::unique_ptr<Outcome> RawMsgManyToOne::outcome;

TEST_F(RawMsgManyToOne, EveryMessageArrivesIntactInItsOwnBuffer) {
    const Outcome& o = *outcome;
    ASSERT_TRUE(o.finished) << "node 0 got " << o.received.size() << " of " << kBuffers;
    std::map<std::pair<uint32_t, uint32_t>, int> seen;
    for (uint32_t i = 0; i < kBuffers; ++i) {
        auto id = identify(o.buffers[i]);
        EXPECT_NE(id.second, ~0u) << "buffer " << i << " holds no message intact";
        ++seen[id];
        for (uint32_t g = kLength; g < kLength + 16; ++g) EXPECT_EQ(o.buffers[i][g], 0xEE) << "past buffer " << i;
    }
    EXPECT_EQ(seen.size(), kBuffers) << "sixteen different messages";
    for (const seastar::RawResult& r : o.received) {
        EXPECT_EQ(r.op, RAW_RES_RECEIVED);
        EXPECT_EQ(r.status, NICLAB_DMA_OK);
        EXPECT_EQ(r.bytes, kLength);
    }
    for (auto& per_sender : o.sent)
        for (const seastar::RawResult& r : per_sender) {
            EXPECT_EQ(r.op, RAW_RES_SENT);
            EXPECT_EQ(r.status, NICLAB_DMA_OK);
            EXPECT_EQ(r.bytes, kLength);
        }
}

TEST_F(RawMsgManyToOne, NothingIsLostUnderCreditFlowControl) {
    const Outcome& o = *outcome;
    ASSERT_TRUE(o.finished);
    EXPECT_EQ(o.net.packets_injected, o.net.packets_delivered);
    EXPECT_EQ(o.net.bytes_delivered, uint64_t(kBuffers) * kLength);
    EXPECT_EQ(o.net.corrupted_delivered, 0u);
    EXPECT_EQ(o.in_flight, 0u);
    EXPECT_EQ(o.rx_packets, o.net.packets_delivered);
    EXPECT_GT(o.net.injections_refused, 0u) << "the senders were held back by credits";
    // Sixteen messages share node 0's ejection link (2500 MB/s): the run cannot beat
    // it, and flow control must not collapse far below it either.
    const double us = (o.end - o.start).as_us();
    const double link_us = double(kBuffers) * kLength / 2500.0;
    EXPECT_GE(us, link_us);
    EXPECT_LT(us, 1.5 * link_us);
}

TEST_F(RawMsgManyToOne, EachResultNamesItsBufferAndSource) {
    const Outcome& o = *outcome;
    ASSERT_TRUE(o.finished);
    std::vector<int> completions(kBuffers, 0);
    for (const seastar::RawResult& r : o.received) {
        ASSERT_LT(r.tag, kBuffers);
        ++completions[r.tag];
        EXPECT_EQ(identify(o.buffers[r.tag]).first, r.src) << "buffer " << r.tag;
    }
    for (uint32_t i = 0; i < kBuffers; ++i) EXPECT_EQ(completions[i], 1) << "buffer " << i;
}

}  // namespace
}  // namespace niclab::test
