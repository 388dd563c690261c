// Host CPU accounting around a raw_msg transfer: each result the firmware posts
// interrupts the host, and each interrupt costs at least 2 us of CPU (seed 001 §3.3),
// charged to interrupt time, not to the waiting process.
#include <gtest/gtest.h>

#include "niclab/fw/hw.h"
#include "raw_test_support.hpp"

namespace niclab::test {
namespace {

TEST(RawMsgHostCpu, InterruptsAreCountedAndCostAtLeastTwoMicroseconds) {
    system::System sys(raw::spec_for(2, nullptr));
    raw::Stream s = raw::stream(sys, 0, 1, 4, 65536);
    ASSERT_EQ(s.received.size(), 4u);
    for (uint32_t node : {0u, 1u}) {
        const host::CpuTimes t = sys.host_cpu(node).times();
        SCOPED_TRACE(::testing::Message() << "node " << node);
        EXPECT_GT(t.interrupts, 0u);
        EXPECT_LE(t.interrupts, 4u) << "at most one interrupt per result";
        EXPECT_GE(t.interrupt, Time::us(2) * int64_t(t.interrupts));
        EXPECT_LE(t.busy(), t.elapsed);
    }
}

}  // namespace
}  // namespace niclab::test
