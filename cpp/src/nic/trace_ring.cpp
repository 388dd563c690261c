#include "niclab/nic/trace_ring.hpp"

#include <array>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "niclab/fw/trace.h"
#include "niclab/nic/embedded_nic.hpp"

namespace niclab::nic {

using trace::Trace;
using trace::TraceError;

namespace {
std::string hex32(uint32_t v) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08x", v);
    return buf;
}

uint32_t word_at(const uint8_t* p) {
    uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
}

uint64_t mcycle(const core::Cpu& cpu) {
    uint32_t lo = 0, hi = 0;
    cpu.read_csr(0xB00, lo);  // mcycle (what the firmware stamps records with)
    cpu.read_csr(0xB80, hi);  // mcycleh
    return (uint64_t(hi) << 32) | lo;
}
}  // namespace

RingInfo find_ring(const EmbeddedNic& nic) {
    const fw::FirmwareImage* image = nic.image();
    const std::string node = "node " + std::to_string(nic.node_id());
    if (!image) throw TraceError(node + ": no firmware loaded, so there is no trace");
    RingInfo info;
    if (!image->find_symbol("niclab_trace", info.descriptor))
        throw TraceError(node + ": firmware " + image->path().string() +
                         " has no trace ring (no symbol niclab_trace): build it with niclab_firmware(... TRACE)");
    std::array<uint8_t, NICLAB_TRACE_DESC_SIZE> d{};
    try {
        nic.read_sram(info.descriptor, d);
    } catch (const std::out_of_range& e) {
        throw TraceError(node + ": trace descriptor niclab_trace at " + hex32(info.descriptor) +
                         " is not in SRAM (" + e.what() + ")");
    }
    const uint32_t magic = word_at(&d[NICLAB_TRACE_DESC_MAGIC]);
    const uint32_t version = word_at(&d[NICLAB_TRACE_DESC_VERSION]);
    info.ring = word_at(&d[NICLAB_TRACE_DESC_RING]);
    info.entries = word_at(&d[NICLAB_TRACE_DESC_ENTRIES]);
    info.index_reg = word_at(&d[NICLAB_TRACE_DESC_INDEX_REG]);
    const std::string where = node + ": trace descriptor niclab_trace at " + hex32(info.descriptor);
    if (magic != NICLAB_TRACE_MAGIC)
        throw TraceError(where + " has magic " + hex32(magic) + ", expected " + hex32(NICLAB_TRACE_MAGIC));
    if (version != NICLAB_TRACE_VERSION)
        throw TraceError(where + " has version " + std::to_string(version) + ", this reader knows " +
                         std::to_string(NICLAB_TRACE_VERSION));
    if (info.entries == 0 || (info.entries & (info.entries - 1)) != 0)
        throw TraceError(where + ": ring entries " + std::to_string(info.entries) + " is not a power of two");
    if (info.index_reg == 0 || info.index_reg > 31)
        throw TraceError(where + ": index register x" + std::to_string(info.index_reg) + " is not usable");
    try {
        nic.sram_offset(info.ring, info.entries * NICLAB_TRACE_RECORD_BYTES);
    } catch (const std::out_of_range&) {
        throw TraceError(where + ": ring at " + hex32(info.ring) + " with " + std::to_string(info.entries) +
                         " records is not inside SRAM");
    }
    return info;
}

Trace read_trace(const EmbeddedNic& nic) {
    const RingInfo info = find_ring(nic);
    const uint32_t count = nic.cpu().reg(info.index_reg);
    const uint64_t now = mcycle(nic.cpu());

    std::vector<uint8_t> ring(size_t(info.entries) * NICLAB_TRACE_RECORD_BYTES);
    nic.read_sram(info.ring, ring);

    Trace t;
    const uint32_t n = count < info.entries ? count : info.entries;
    const uint32_t oldest = count - n;
    t.records.reserve(n);
    for (uint32_t i = 0; i < n; ++i) {
        const uint8_t* p = &ring[size_t((oldest + i) & (info.entries - 1)) * NICLAB_TRACE_RECORD_BYTES];
        t.records.push_back({word_at(p), word_at(p + 4)});
    }
    t.header.clock_hz = uint64_t(nic.config().core.clock_mhz) * 1'000'000u;
    t.header.sram_cached_base = nic.config().sram.cached_base;
    t.header.node_id = nic.node_id();
    t.header.build_id = nic.image()->build_id();
    t.header.total_count = count;
    t.header.flags = (count > n ? trace::kFlagWrapped : 0) | trace::kFlagHasEpoch;
    t.header.epoch_ps = nic.cpu().mcycle_epoch().ps();
    t.header.period_ps = uint64_t(nic.cpu().clock().period_ps());
    if (!t.records.empty()) {
        t.header.first_cycles = trace::unwrap_backward(t.records, now).front();
        t.header.flags |= trace::kFlagHasBase;
    }
    return t;
}

}  // namespace niclab::nic
