// What the NIU detects on its own stops that NIU, not the process or the run: RDMA into
// a window the receiver's driver did not open faults the receiving node, the System
// names it with the NIU's report, the stream waits in the network, the other nodes and
// the hosts go on, and an experiment on the faulted system is an ExperimentError.
#include <gtest/gtest.h>

#include <memory>

#include "niclab/host/process.hpp"
#include "niclab/systems/startx/model.hpp"

namespace niclab::startx {
namespace {

TEST(StartxSystem, RdmaIntoAnUnopenedWindowFaultsTheReceiverOnly) {
    system::System sys(system::SystemSpec::from_json({{"system", "startx"}, {"nodes", 2}}));
    Jam& a = jam(sys, 0);
    const uint64_t buf = a.allocate(4096);
    bool sender_done = false;
    auto sender = std::make_unique<host::Process>(sys.host_cpu(0), "rdma", [&](host::ProcessContext& ctx) {
        a.rdma_headers(ctx, 1, 0);
        a.rdma_transmit(ctx, buf, 256);
        sender_done = true;
    });
    auto r = sys.run_for(Time::us(200));
    EXPECT_TRUE(sender_done);
    sender->rethrow_if_failed();
    EXPECT_EQ(r.faulted_nodes, std::vector<size_t>{1});
    EXPECT_TRUE(sys.faulted(1));
    EXPECT_FALSE(sys.faulted(0));
    EXPECT_NE(sys.fault_report(1).find("opened no RDMA window"), std::string::npos) << sys.fault_report(1);
    EXPECT_EQ(jam(sys, 1).niu().rdma_received(), 0u);

    // The run goes on: node 0's host still computes, and time advances.
    bool computed = false;
    auto worker = std::make_unique<host::Process>(sys.host_cpu(0), "work", [&](host::ProcessContext& ctx) {
        ctx.compute(Time::us(5));
        computed = true;
    });
    r = sys.run_for(Time::us(50));
    EXPECT_TRUE(computed);
    EXPECT_TRUE(r.faulted_nodes.empty());  // reported once, when it happened
}

}  // namespace
}  // namespace niclab::startx
