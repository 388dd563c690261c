#pragma once
// Shared by the raw_msg end-to-end tests: a stream of messages from one node to
// another through the raw_msg firmware, with every byte of every receive buffer
// checked against what was sent.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "niclab/systems/seastar/seastar.hpp"
#include "niclab/host/process.hpp"
#include "niclab/systems/seastar/raw_nic.hpp"
#include "niclab/system/system.hpp"
#include "test_support.hpp"

namespace niclab::test::raw {

using niclab::test::pattern;

inline std::string firmware() { return std::string(NICLAB_FIRMWARE_DIR) + "/examples/raw_msg.elf"; }

inline system::SystemSpec spec_for(uint32_t nodes, nlohmann::json topology, uint64_t seed = 0,
                                   nlohmann::json set = nlohmann::json::object()) {
    system::SystemSpec s;
    s.nodes = nodes;
    s.topology = std::move(topology);
    s.seed = seed;
    s.overrides = std::move(set);
    s.firmware = {firmware()};
    return s;
}


struct Stream {
    std::vector<seastar::RawResult> sent;      // in completion order
    std::vector<seastar::RawResult> received;  // in completion order
    std::vector<bool> intact;              // per buffer (= per message, in send order)
};

// `count` messages of `length` bytes from `src` to `dst`, sent back to back; `dst`
// posts one buffer per message first. One path delivers in order, so buffer i
// (tag i) receives message i.
inline Stream stream(system::System& sys, uint32_t src, uint32_t dst, uint32_t count, uint32_t length) {
    constexpr uint64_t kSrcBase = 0x100003, kDstBase = 0x4000005;
    const uint64_t stride = (uint64_t(length) + 0x1000) & ~uint64_t(0xFFF);
    for (uint32_t i = 0; i < count; ++i) {
        sys.host_memory(src).write(kSrcBase + i * stride, pattern(length, i + 1));
        sys.host_memory(dst).fill(kDstBase + i * stride, 0xEE, stride);
    }
    seastar::RawNic tx(seastar::seastar_nic(sys, src), sys.host_cpu(src));
    seastar::RawNic rx(seastar::seastar_nic(sys, dst), sys.host_cpu(dst));
    Stream s;
    host::Process receiver(sys.host_cpu(dst), "receiver", [&](host::ProcessContext& ctx) {
        for (uint32_t i = 0; i < count; ++i) rx.post_receive(ctx, kDstBase + i * stride, length, i);
        for (uint32_t i = 0; i < count; ++i) s.received.push_back(rx.wait(ctx));
    });
    host::Process sender(sys.host_cpu(src), "sender", [&](host::ProcessContext& ctx) {
        for (uint32_t i = 0; i < count; ++i) tx.send(ctx, dst, kSrcBase + i * stride, length, i);
        for (uint32_t i = 0; i < count; ++i) s.sent.push_back(tx.wait(ctx));
    });
    sys.run_until(Time::max());
    receiver.rethrow_if_failed();
    sender.rethrow_if_failed();
    EXPECT_TRUE(receiver.done() && sender.done()) << "the stream did not finish";
    for (uint32_t i = 0; i < count; ++i) {
        std::vector<uint8_t> got(length + 16);
        sys.host_memory(dst).read(kDstBase + i * stride, got);
        auto want = pattern(length, i + 1);
        s.intact.push_back(std::equal(want.begin(), want.end(), got.begin()));
        for (uint32_t k = length; k < length + 16; ++k) EXPECT_EQ(got[k], 0xEE) << "written past buffer " << i;
    }
    return s;
}

}  // namespace niclab::test::raw
