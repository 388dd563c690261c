#pragma once
// Two T9000s and a stream of messages between them over a vl transport, shared by the
// T9000 tests (test_vcp.cpp, test_links.cpp).
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "niclab/system/system.hpp"
#include "niclab/systems/t9000/model.hpp"
#include "test_processes.hpp"

namespace niclab::t9000::test {

inline system::SystemSpec two_nodes(nlohmann::json extra = nlohmann::json::object()) {
    nlohmann::json j = {{"preset", "t9000-20"}, {"nodes", 2}};
    j.update(extra);
    return system::SystemSpec::from_json(j);
}

// Node 0 sends `sizes` to node 1 over `transport`, `rounds` times each, and node 1
// answers the last message with an empty one (channels are synchronous: an answer to
// every message would wait for an input node 0 has not posted). Returns the time node 0
// had the answer. The transports check every byte against the sender's pattern.
struct Outcome {
    Time end;
    VcpStats tx, rx;
    MemoryStats tx_memory, rx_memory;
    // The cable out of each of the network's terminals (system/terminals.hpp), by terminal.
    std::vector<net::LinkStats> cables;
};
inline Outcome stream(const std::string& transport, const std::vector<uint64_t>& sizes, int rounds = 1,
                      nlohmann::json extra = nlohmann::json::object()) {
    system::System sys(two_nodes(extra));
    auto a = model().open_transport(sys, 0, 1, transport, 7);
    auto b = model().open_transport(sys, 1, 0, transport, 7);
    uint64_t max = 1;
    for (uint64_t s : sizes) max = std::max(max, s);
    Outcome run;
    niclab::test::TestProcesses procs;
    procs.spawn(sys.host_cpu(0), "send", [&](host::ProcessContext& ctx) {
        a->open(ctx, max);
        uint64_t tag = 0;
        for (uint64_t s : sizes) {
            a->prepare_send(ctx, s);
            for (int r = 0; r < rounds; ++r) a->send(ctx, ++tag);
        }
        EXPECT_EQ(a->recv(ctx).bytes, 0u);
        run.end = ctx.now();
    });
    procs.spawn(sys.host_cpu(1), "receive", [&](host::ProcessContext& ctx) {
        b->open(ctx, max);
        uint64_t tag = 0;
        for (uint64_t s : sizes)
            for (int r = 0; r < rounds; ++r) {
                const msg::Received got = b->recv(ctx);
                EXPECT_EQ(got.bytes, s);
                EXPECT_EQ(got.tag, ++tag);
            }
        b->prepare_send(ctx, 0);
        b->send(ctx, 0);
    });
    sys.run_for(Time::ms(200));
    procs.rethrow_failures();
    for (auto& p : procs) EXPECT_TRUE(p->done()) << p->name() << " did not finish";
    EXPECT_FALSE(sys.faulted(0)) << sys.fault_report(0);
    EXPECT_FALSE(sys.faulted(1)) << sys.fault_report(1);
    run.tx = vcp(sys, 0).stats();
    run.rx = vcp(sys, 1).stats();
    run.tx_memory = memory_system(sys, 0).stats();
    run.rx_memory = memory_system(sys, 1).stats();
    for (uint32_t t = 0; t < sys.terminals().count(); ++t)
        run.cables.push_back(sys.network()->link(sys.network()->injection_link(t)).stats());
    return run;
}


}  // namespace niclab::t9000::test
