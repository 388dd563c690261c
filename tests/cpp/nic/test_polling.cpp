// A C firmware that polls for work (firmware/examples/doorbell.c), first a word of
// SRAM, then a device register (the control block's external interrupt status), rung
// by the host at irregular times: with the core's polling fast-forward on, it sees
// every ring at the same mcycle, and ends with the same cycles, instructions, stalls
// and device loads, as with every pass of its waits run - and the fast-forward did
// skip passes of both.
#include "niclab/fw/core_hw.h"
#include "nic_test_support.hpp"

namespace niclab::test {
namespace {

constexpr uint32_t kRings = 40;  // of each doorbell

struct Rung {
    std::vector<uint32_t> log;
    uint64_t cycles, instret, stalls, dcache_accesses, device_loads, skipped;
};

Rung ring(bool skip) {
    auto sys = make_system({{"firmware", "doorbell"}});
    nic::EmbeddedNic& nic = sys->nic(0);
    nic.cpu().set_spin_skip(skip);
    const uint32_t doorbell = symbol(nic, "fw_doorbell"), log = symbol(nic, "fw_log");
    for (uint32_t k = 1; k <= kRings; ++k) {
        sys->run_for(Time::ns(2000 + (k * 7919) % 9000));
        nic.poke32(doorbell, k);
        sys->run_for(Time::ns(1000 + (k * 4801) % 5000));
        nic.control().raise_external(NICLAB_IRQ_DOORBELL);
    }
    sys->run_for(Time::us(20));
    EXPECT_EQ(nic.peek32(symbol(nic, "fw_rings")), 2 * kRings) << "a ring was missed";
    const core::Cpu& cpu = nic.cpu();
    Rung r{{}, cpu.cycles(), cpu.instret(), cpu.stall_cycles(), cpu.dcache().accesses, cpu.counts().device_loads,
           cpu.spin_passes_skipped()};
    for (uint32_t i = 0; i < 4 * kRings; ++i) r.log.push_back(nic.peek32(log + 4 * i));
    return r;
}

TEST(Polling, TheFastForwardSeesEveryRingAtTheSameCycle) {
    const Rung skipping = ring(true), plain = ring(false);
    EXPECT_EQ(plain.skipped, 0u);
    EXPECT_GT(skipping.skipped, 10'000u) << "the waits were not skipped";
    EXPECT_GT(plain.device_loads, 5'000u) << "the device register wait did not spin";
    EXPECT_EQ(skipping.log, plain.log);
    EXPECT_EQ(skipping.cycles, plain.cycles);
    EXPECT_EQ(skipping.instret, plain.instret);
    EXPECT_EQ(skipping.stalls, plain.stalls);
    EXPECT_EQ(skipping.dcache_accesses, plain.dcache_accesses);
    EXPECT_EQ(skipping.device_loads, plain.device_loads);
    for (uint32_t k = 1; k <= kRings; ++k) {
        EXPECT_EQ(plain.log[4 * (k - 1)], k) << "SRAM ring " << k;
        EXPECT_EQ(plain.log[4 * (k - 1) + 2], NICLAB_IRQ_DOORBELL) << "device ring " << k;
    }
}

}  // namespace
}  // namespace niclab::test
