// The record layout, bit for bit, on both sides: RawRecord and what the firmware's
// trace point really writes into SRAM. And 32-bit timestamp unwrapping.
#include <array>
#include <cstring>

#include "niclab/fw/hw.h"
#include "niclab/fw/trace.h"
#include "niclab/nic/trace_ring.hpp"
#include "trace_test_support.hpp"

namespace niclab::trace::test {
namespace {

using nic::find_ring;
using nic::read_trace;
using nic::RingInfo;

TEST(TraceRecord, LayoutOfFigure2FirstLine) {
    const RawRecord r = RawRecord::make(0xe4681e8b, 24, 0xffff0c4c);
    EXPECT_EQ(r.word, 0x18ff0c4cu);  // value 0x18 in the top byte, PC bits ff0c4c below
    EXPECT_EQ(r.value(), 24);
    EXPECT_EQ(r.pc_bits(), 0xff0c4cu);
    EXPECT_EQ(r.pc(), 0xffff0c4cu);
    EXPECT_EQ(RawRecord::make(0, 0xff, 0xfff40104).word, 0xfff40104u);
    EXPECT_EQ(RawRecord::make(0, 0, 0xfff40104).pc(), 0xfff40104u);  // uncached view survives too
}

TEST(TraceRecord, FirmwareWritesTheDocumentedLayout) {
    auto sys = one_node();
    nic::EmbeddedNic& nic = sys->nic(0);
    nic.load_firmware(cost_firmware("cost_on"));
    sys->run_until(Time::us(200));
    ASSERT_TRUE(nic.halted());

    const RingInfo ring = find_ring(nic);
    EXPECT_EQ(ring.entries, 1024u);
    EXPECT_EQ(ring.index_reg, 4u);
    EXPECT_EQ(ring.ring, symbol(nic, "niclab_trace_ring"));
    EXPECT_GE(ring.ring, NICLAB_SRAM_UNCACHED_BASE);  // uncached SRAM, shared with the host
    EXPECT_LT(ring.ring, NICLAB_SRAM_CACHED_BASE);

    // measure_points: trace(), trace_val(1, 2, 3, 0x81, 0x82, 0x83), trace(); the
    // firmware runs it twice. Take the second, warm run's slots from the raw SRAM bytes.
    const fw::Symbolizer symbols(nic.image()->path());
    const Trace t = read_trace(nic);
    ASSERT_EQ(t.lost(), 0u);
    std::vector<size_t> slots;
    for (size_t i = 0; i < t.records.size(); ++i)
        if (symbols.lookup(t.records[i].pc()).function == "measure_points") slots.push_back(i);
    ASSERT_EQ(slots.size(), 16u);
    const uint8_t values[8] = {0, 1, 2, 3, 0x81, 0x82, 0x83, 0};
    uint32_t prev_ts = 0, prev_pc = 0;
    for (int i = 0; i < 8; ++i) {
        std::array<uint8_t, 8> bytes{};
        nic.read_sram(ring.ring + 8 * uint32_t(slots[8 + i]), bytes);
        const uint32_t ts = bytes[0] | bytes[1] << 8 | bytes[2] << 16 | uint32_t(bytes[3]) << 24;
        const uint32_t word = bytes[4] | bytes[5] << 8 | bytes[6] << 16 | uint32_t(bytes[7]) << 24;
        EXPECT_EQ(word >> 24, values[i]) << "record " << i;
        const uint32_t pc = 0xFF000000u | (word & 0xFFFFFFu);
        // The recorded PC is the return address: the instruction before it is the
        // `jal t0, niclab_trace_point` of the trace point.
        const uint32_t call = nic.peek32(pc - 4);
        EXPECT_EQ(call & 0x7F, 0x6Fu) << "not a jal";
        EXPECT_EQ((call >> 7) & 31, 5u) << "link register is not t0";
        if (i > 0) {
            EXPECT_EQ(pc - prev_pc, 8u);   // lui + jal per trace point
            EXPECT_EQ(ts - prev_ts, 16u);  // one trace point apart
        }
        prev_ts = ts;
        prev_pc = pc;
    }
}

TEST(TraceRecord, UnwrapAcrossTheCounterWrap) {
    const std::vector<RawRecord> r = {{0xFFFFFF00, 0}, {0xFFFFFFF0, 0}, {0x00000010, 0}, {0x00000100, 0}};
    const uint64_t base = 0x3'FFFFFF00ull;
    const auto fwd = unwrap_forward(r, base);
    EXPECT_EQ(fwd, (std::vector<uint64_t>{0x3'FFFFFF00ull, 0x3'FFFFFFF0ull, 0x4'00000010ull, 0x4'00000100ull}));
    EXPECT_EQ(unwrap_backward(r, 0x4'00000200ull), fwd);
    // A gap of more than 2^32 cycles cannot be seen; everything below it is exact.
    EXPECT_EQ(unwrap_backward(r, 0x5'00000200ull).back(), 0x5'00000100ull);

    Trace t;
    t.records = r;
    t.header.first_cycles = base;
    t.header.flags = kFlagHasBase;
    EXPECT_EQ(t.unwrapped_cycles(), fwd);
    t.header.flags = 0;  // without a base: start from the first 32-bit timestamp
    EXPECT_EQ(t.unwrapped_cycles().back(), 0xFFFFFF00ull + 0x200);
}

}  // namespace
}  // namespace niclab::trace::test
