// Results are bit-for-bit deterministic for a given spec and seed (DESIGN.md):
// two identical systems agree on every counter, byte and time.
#include "nic_test_support.hpp"

namespace niclab::test {
namespace {

struct Outcome {
    std::vector<uint64_t> cycles, instret, stall;
    std::vector<std::string> console;
    std::vector<int64_t> stop_ps;
    int64_t end_ps = 0;
    uint64_t events = 0;
    bool operator==(const Outcome&) const = default;
};

Outcome run(const nlohmann::json& spec, Time until) {
    auto sys = make_system(spec);
    sys->run_until(until);
    Outcome o;
    for (size_t i = 0; i < sys->node_count(); ++i) {
        const nic::EmbeddedNic& n = sys->nic(i);
        o.cycles.push_back(n.cpu().cycles());
        o.instret.push_back(n.cpu().instret());
        o.stall.push_back(n.cpu().stall_cycles());
        o.console.push_back(n.console());
        o.stop_ps.push_back(n.cpu().stop_time().ps());
    }
    o.end_ps = sys->now().ps();
    o.events = sys->kernel().events_fired();
    return o;
}

TEST(Determinism, IdenticalSpecsGiveIdenticalRuns) {
    const nlohmann::json spec = {{"nodes", 2}, {"seed", 7}, {"firmware", {"hello", "timer_irq"}}};
    Outcome a = run(spec, Time::max());
    Outcome b = run(spec, Time::max());
    EXPECT_EQ(a, b);
    EXPECT_GT(a.cycles[0], 0u);
    EXPECT_NE(a.console[1].find("timer_irq: 10 ticks"), std::string::npos) << a.console[1];
    EXPECT_GT(a.stop_ps[1], 0);
}

TEST(Determinism, SlicingARunDoesNotChangeIt) {
    // The same run in one piece and in many pieces (as an observer or a GUI does it).
    const nlohmann::json spec = {{"nodes", 2}, {"firmware", {"timer_irq", "counter"}}};
    Outcome whole = run(spec, Time::us(200));
    auto sys = make_system(spec);
    for (int us = 3; us <= 200; us += 3) sys->run_until(Time::us(std::min(us, 200)));
    sys->run_until(Time::us(200));
    for (size_t i = 0; i < 2; ++i) {
        EXPECT_EQ(sys->nic(i).cpu().cycles(), whole.cycles[i]) << i;
        EXPECT_EQ(sys->nic(i).cpu().instret(), whole.instret[i]) << i;
        EXPECT_EQ(sys->nic(i).console(), whole.console[i]) << i;
    }
}

}  // namespace
}  // namespace niclab::test
