// portals_traced (seed 000 §3.3): trace points at the handler entries and key steps,
// so one put can be followed through both NICs from the trace rings.
#include <gtest/gtest.h>

#include "niclab/nic/trace_ring.hpp"
#include "portals_harness.hpp"

namespace niclab::test {
namespace {

// Function names of the trace records, in order, without repeats in a row. Inlined
// helpers report as their caller (trace.h caveat): tx_program shows as tx_progress.
std::vector<std::string> path(const nic::EmbeddedNic& nic) {
    std::vector<std::string> names;
    for (const auto& r : nic::read_trace(nic).records) {
        std::string w = nic.where(r.pc());
        std::string fn = w.substr(0, w.find('+'));
        if (names.empty() || names.back() != fn) names.push_back(fn);
    }
    return names;
}

bool contains_in_order(const std::vector<std::string>& have, const std::vector<std::string>& want) {
    size_t i = 0;
    for (const auto& h : have)
        if (i < want.size() && h == want[i]) ++i;
    return i == want.size();
}

std::string join(const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v) s += x + " ";
    return s;
}

TEST(PortalsTrace, APutCanBeFollowedThroughBothNics) {
    system::System sys(ptl::spec(2, "portals_traced"));
    ptl::put_pattern(sys, 0, 0x100001, 3000, 1);
    ptl::NodeScript tx, rx;
    tx.sends.push_back({1, 0, 0x100001, 3000, {}, {}});
    rx.expect_rx = 1;
    rx.place = [](const ptl::Incoming&) { return ptl::Placement{0x200001, 3000, {}}; };
    ptl::run(sys, {{0, &tx}, {1, &rx}});
    ASSERT_TRUE(tx.finished && rx.finished);
    auto sender = path(sys.nic(0)), receiver = path(sys.nic(1));
    EXPECT_TRUE(contains_in_order(sender, {"tx_command", "source_get", "tx_progress", "tx_completions", "event_post"})) << join(sender);
    EXPECT_TRUE(contains_in_order(receiver, {"rx_events", "event_post", "rx_command", "rx_program", "rx_completions",
                                             "event_post", "rx_release"}))
        << join(receiver);
}

}  // namespace
}  // namespace niclab::test
