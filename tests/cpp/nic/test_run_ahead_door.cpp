// The debug back door while a NIC core runs ahead of its horizon (SystemSpec "run_ahead"):
// a model that reads or writes, during a run, SRAM the core reaches through its caches at
// a time the core has run past is a logic_error naming the offset - the core may already
// have read the old value or written a newer one - and never a silent difference. The
// uncached view's words (the mailboxes, the trace ring, the heartbeat) are the models'
// to share at any time, and between runs everything is.
#include <stdexcept>
#include <string>

#include "nic_test_support.hpp"
#include "niclab/fw/hw.h"

namespace niclab::test {
namespace {

// crc32 computes in its cached SRAM for a long while; events every 100 ns cut its runs,
// and one of them, 20 us in, does `touch`.
void run_touching(bool run_ahead, const std::function<void(nic::EmbeddedNic&)>& touch) {
    auto sys = make_system({{"firmware", "crc32"}, {"run_ahead", run_ahead}});
    nic::EmbeddedNic& nic = sys->nic(0);
    const Time start = sys->now();
    for (int64_t k = 1; k < 400; ++k) sys->kernel().schedule_at(start + Time::ns(100 * k), [] {});
    sys->kernel().schedule_at(start + Time::ns(20'050), [&] { touch(nic); });
    sys->run_until(start + Time::us(40));
    EXPECT_FALSE(nic.halted()) << "it finished before the touch: the test would pass without it";
}

TEST(RunAheadDoor, TouchingWhatTheCoreCachedWhileItIsAheadIsALogicError) {
    for (const bool write : {false, true}) {
        SCOPED_TRACE(write ? "poke" : "peek");
        uint32_t offset = 0;
        try {
            run_touching(true, [&](nic::EmbeddedNic& nic) {
                const uint32_t at = symbol(nic, "iterations");  // read once, through the D-cache
                offset = nic.sram_offset(at, 4);
                if (write) nic.poke32(at, 5);
                else (void)nic.peek32(at);
            });
            ADD_FAILURE() << "no logic_error";
        } catch (const std::logic_error& e) {
            char where[64];
            std::snprintf(where, sizeof where, "SRAM offset 0x%x (4 bytes) %s", offset, write ? "written" : "read");
            EXPECT_NE(std::string(e.what()).find(where), std::string::npos) << e.what();
        }
    }
}

TEST(RunAheadDoor, TheUncachedViewAndACoreNotRunningAheadAreFree) {
    // A word no cache has held (as the host's mailbox), with the core ahead.
    EXPECT_NO_THROW(run_touching(true, [](nic::EmbeddedNic& nic) { nic.poke32(NICLAB_SRAM_UNCACHED_BASE + 0x8000, 1); }));
    // What the core caches, with every core stopped at its horizon.
    EXPECT_NO_THROW(run_touching(false, [](nic::EmbeddedNic& nic) { (void)nic.peek32(symbol(nic, "iterations")); }));
}

// Between runs no core is past the kernel's time: the debugger and Python read and write
// anything, running ahead or not.
TEST(RunAheadDoor, BetweenRunsEverythingIsFree) {
    auto sys = make_system({{"firmware", "crc32"}});
    nic::EmbeddedNic& nic = sys->nic(0);
    sys->run_for(Time::us(20));
    const uint32_t at = symbol(nic, "iterations");
    EXPECT_NO_THROW(nic.poke32(at, nic.peek32(at)));
}

}  // namespace
}  // namespace niclab::test
