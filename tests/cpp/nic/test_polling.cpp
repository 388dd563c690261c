// A C firmware that polls SRAM for work (firmware/examples/doorbell.c), rung by the
// host at irregular times: with the core's polling fast-forward on, it sees every
// ring at the same mcycle, and ends with the same cycles, instructions and stalls, as
// with every pass of its wait run - and the fast-forward did skip passes.
#include "nic_test_support.hpp"

namespace niclab::test {
namespace {

struct Rung {
    std::vector<uint32_t> log;
    uint64_t cycles, instret, stalls, dcache_accesses, skipped;
};

Rung ring(bool skip) {
    auto sys = make_system({{"firmware", "doorbell"}});
    nic::EmbeddedNic& nic = sys->nic(0);
    nic.cpu().set_spin_skip(skip);
    const uint32_t doorbell = symbol(nic, "fw_doorbell"), log = symbol(nic, "fw_log");
    for (uint32_t k = 1; k <= 40; ++k) {
        sys->run_for(Time::ns(2000 + (k * 7919) % 9000));
        nic.poke32(doorbell, k);
    }
    sys->run_for(Time::us(20));
    EXPECT_EQ(nic.peek32(symbol(nic, "fw_rings")), 40u) << "a ring was missed";
    Rung r{{}, nic.cpu().cycles(), nic.cpu().instret(), nic.cpu().stall_cycles(), nic.cpu().dcache().accesses,
           nic.cpu().spin_passes_skipped()};
    for (uint32_t i = 0; i < 2 * 40; ++i) r.log.push_back(nic.peek32(log + 4 * i));
    return r;
}

TEST(Polling, TheFastForwardSeesEveryRingAtTheSameCycle) {
    const Rung skipping = ring(true), plain = ring(false);
    EXPECT_EQ(plain.skipped, 0u);
    EXPECT_GT(skipping.skipped, 10'000u) << "the doorbell wait was not skipped";
    EXPECT_EQ(skipping.log, plain.log);
    EXPECT_EQ(skipping.cycles, plain.cycles);
    EXPECT_EQ(skipping.instret, plain.instret);
    EXPECT_EQ(skipping.stalls, plain.stalls);
    EXPECT_EQ(skipping.dcache_accesses, plain.dcache_accesses);
    for (uint32_t k = 1; k <= 40; ++k) EXPECT_EQ(plain.log[2 * (k - 1)], k) << "ring " << k;
}

}  // namespace
}  // namespace niclab::test
