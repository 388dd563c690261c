// The T9000's memory system (memory_system.hpp): the VCP's data words go through the
// node's memory port, the computing process loses the cycles the VCP steals there, and
// external data that no longer fits the 8 KB cache beside the process's working set
// streams through the external interface and evicts the process's data (seed 003 L108,
// L153, L158).
#include <gtest/gtest.h>

#include "niclab/exp/experiments.hpp"
#include "niclab/system/config_error.hpp"
#include "niclab/systems/t9000/model.hpp"
#include "vl_stream.hpp"

namespace niclab::t9000 {
namespace {

using test::stream;
using test::two_nodes;

nlohmann::json external(bool on) { return {{"set", {{"t9000.external_data", on ? 1 : 0}}}}; }

// The client's CPU load (%) of a Comms1 ping-pong of `bytes` with an FP process beside it.
double load(uint64_t bytes, bool external_data) {
    const auto r = exp::run_experiment("cpu_load", two_nodes(external(external_data)),
                                       {{"transport", "vl_seq"}, {"sizes", {bytes}}});
    return r.column("load_percent")[0];
}

TEST(T9000Memory, TheVcpsDataWordsGoThroughTheMemoryPort) {
    // Every data byte a VCP reads for a packet or writes from one is a 64-bit word on its
    // port: 1000 B = 125 words, 4096 B = 512, twice each.
    const auto r = stream("vl", {1000, 4096}, 2);
    EXPECT_EQ(r.tx_memory.vcp_words, 2u * (125 + 512));
    EXPECT_EQ(r.rx_memory.vcp_words, 2u * (125 + 512));
    EXPECT_EQ(r.tx_memory.vcp_external_words, 0u);  // the preset's data is on chip
}

TEST(T9000Memory, MemoryContentionSlowsTheComputingProcess) {
    // The same 10 KB ping-pong: with the data in external memory (4 cycles a word, and
    // more than the cache holds) the VCP holds the port far longer than with it on chip,
    // and the FP process beside it loses that time.
    const double on_chip = load(10240, false), off_chip = load(10240, true);
    EXPECT_GT(on_chip, 0.11);  // more than the in/out instructions and reschedules alone
    EXPECT_GT(off_chip, 2 * on_chip);
}

TEST(T9000Memory, BuffersBeyondTheCacheCostMore) {
    // External data: 1 KB messages (send and receive buffer 2 KB + the 2 KB working set)
    // stay in the 8 KB cache; 16 KB ones stream through the external interface and evict
    // the FP process's data, which it fetches again.
    MemoryParams p;
    p.external_data = true;
    MemorySystem small(p);
    small.vcp_access(Time{}, 0x1000, 0, 1024);
    small.vcp_access(Time{}, 0x2000, 0, 1024);
    EXPECT_FALSE(small.spilling());
    EXPECT_EQ(small.stats().vcp_external_words, 0u);
    EXPECT_EQ(small.cpu_stall(), Time::ns(50) * (256 * 1 / 2));  // half of 256 one-cycle words
    MemorySystem big(p);
    const Time end = big.vcp_access(Time{}, 0x1000, 0, 16384);
    EXPECT_TRUE(big.spilling());
    EXPECT_EQ(end, Time::ns(50) * (2048 * 4));  // 2048 words at 4 cycles
    // stolen: half the port time; refetched: the whole 2 KB working set (evicted at
    // 16384 x 2048 / 8192 bytes, capped at what the process has), 256 words x 4 cycles
    EXPECT_EQ(big.cpu_stall(), Time::ns(50) * (2048 * 4 / 2 + 256 * 4));
    EXPECT_EQ(big.stats().refetched_bytes, 2048u);
    EXPECT_EQ(big.cpu_stall(), Time{});  // nothing new since
    EXPECT_GT(load(16384, true), load(2048, true));
}

TEST(T9000Memory, TheVcpWaitsForAPortTheOtherLinksKeepBusy) {
    // Four links, data in external memory beyond the cache: the four links' packets share
    // one port, so the stream is no faster than on chip, and slower when a word costs more.
    auto mb_s = [](nlohmann::json set) {
        set["t9000.links"] = 4;
        const auto r = exp::run_experiment("stream", two_nodes({{"set", set}}), {{"transport", "vl5"}, {"sizes", {65536}}});
        return r.column("bandwidth_mb_s")[0];
    };
    const double on_chip = mb_s({{"t9000.external_data", 0}});
    const double off_chip = mb_s({{"t9000.external_data", 1}});
    const double slow = mb_s({{"t9000.external_data", 1}, {"mem.external_word_cycles", 12}});
    EXPECT_LE(off_chip, on_chip * 1.0001);
    EXPECT_LT(slow, 0.8 * off_chip);
    // 12 cycles a word: the port (4 words x 12 cycles per 32-byte packet) bounds it at
    // 32 B per 48 cycles at 20 MHz = 13.3 MB/s, for the sender's reads alone
    EXPECT_LT(slow, 32.0 / (48 * 0.05) * 1.01);
}

TEST(T9000Memory, SameSpecAndSeedSameLoadBitForBit) {
    EXPECT_EQ(load(12000, true), load(12000, true));
}

TEST(T9000Memory, ABadMemoryParameterNamesItsKey) {
    for (const char* key : {"mem.cache_bytes", "mem.external_word_cycles"}) {
        try {
            system::System sys(two_nodes({{"set", {{key, 0}}}}));
            FAIL() << key << " = 0 was accepted";
        } catch (const system::ConfigError& e) {
            EXPECT_EQ(e.key_path(), std::string("set.") + key) << e.what();
        }
    }
    try {
        system::System sys(two_nodes({{"set", {{"cpu.memory_percent", 101}}}}));
        FAIL() << "101 % was accepted";
    } catch (const system::ConfigError& e) {
        EXPECT_EQ(e.key_path(), "set.cpu.memory_percent") << e.what();
    }
}

}  // namespace
}  // namespace niclab::t9000
