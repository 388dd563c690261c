// What a trace point costs (seed 000 §3.3: "about 10 ns" on the PPC440; none when
// compiled out), measured with the core's timing model by the firmware itself
// (tests/firmware/trace/trace_cost.c) and derived here from the preset's parameters.
#include "niclab/trace/trace.hpp"
#include "trace_test_support.hpp"

namespace niclab::trace::test {
namespace {

struct Results {
    uint32_t empty, points, work, work_insns, hash, count;
    std::vector<uint8_t> text;  // the text segment without the build-id note
};

Results run(const std::string& name) {
    auto sys = one_node();
    nic::EmbeddedNic& nic = sys->nic(0);
    nic.load_firmware(cost_firmware(name));
    sys->run_until(Time::us(500));
    EXPECT_TRUE(nic.halted()) << name;
    EXPECT_EQ(nic.cpu().exit_code(), 0u) << name;
    Results r{nic.peek32(symbol(nic, "result_empty")),      nic.peek32(symbol(nic, "result_points")),
              nic.peek32(symbol(nic, "result_work")),       nic.peek32(symbol(nic, "result_work_insns")),
              nic.peek32(symbol(nic, "result_hash")),       nic.peek32(symbol(nic, "result_points_count")),
              {}};
    const uint32_t note = symbol(nic, "__build_id_start"), note_end = symbol(nic, "__build_id_end");
    for (const fw::Segment& s : nic.image()->segments()) {
        if (!s.executable) continue;
        for (size_t i = 0; i < s.bytes.size(); ++i)
            if (s.vaddr + i < note || s.vaddr + i >= note_end) r.text.push_back(s.bytes[i]);
    }
    return r;
}

// One trace point, instruction by instruction (firmware/sdk/runtime/trace.S):
//   call site:          lui t1 (value) ; jal t0        2 ALU, 1 taken jump
//   niclab_trace_point: slli, addi, lui, srli, xor, add   6 ALU
//                       csrr mcycle                    1 CSR
//                       sw, sw (uncached, posted)      2 stores
//                       jr t0                          1 ALU, 1 taken jump
// The two posted stores occupy the bus for 2 x sram_write_cycles, less than the trace
// point takes, so back-to-back trace points never wait for the write buffer.
uint32_t expected_trace_point_cycles(const core::CoreConfig& c) {
    return 9 * c.cpi_alu + c.cpi_csr + 2 * c.cpi_store + 2 * c.taken_branch_penalty;
}

TEST(TraceCost, ExactCyclesOfOneTracePoint) {
    auto sys = one_node();
    const core::CoreConfig& cfg = sys->nic(0).config().core;
    const uint32_t per_point = expected_trace_point_cycles(cfg);
    ASSERT_LE(2 * cfg.sram_write_cycles, per_point) << "the write buffer would stall: the formula no longer holds";
    ASSERT_GE(cfg.posted_writes, 2u);
    EXPECT_EQ(per_point, 16u);  // the SeaStar preset: 9 + 1 + 2 + 2 x 2
    EXPECT_EQ(per_point * 1000 / cfg.clock_mhz, 32);  // ns at 500 MHz

    const Results on = run("cost_on");
    ASSERT_EQ(on.count, 8u);
    EXPECT_EQ(on.points - on.empty, on.count * per_point);
}

TEST(TraceCost, ZeroWhenCompiledOut) {
    const Results off = run("cost_off");
    const Results none = run("cost_none");
    const Results on = run("cost_on");
    EXPECT_EQ(off.points, none.points);
    EXPECT_EQ(off.points, off.empty);  // eight trace points cost nothing at all
    EXPECT_EQ(off.work, none.work);
    EXPECT_EQ(off.work_insns, none.work_insns);
    EXPECT_EQ(off.hash, none.hash);
    EXPECT_EQ(off.text, none.text);    // instruction for instruction the same firmware
    EXPECT_GT(on.work, off.work);
    EXPECT_EQ(on.hash, off.hash);
}

}  // namespace
}  // namespace niclab::trace::test
