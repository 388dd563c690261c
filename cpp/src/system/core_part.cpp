// The embedded-core part (core_part.hpp): declared once for the SeaStar and the LANai.
// Cycle costs stay below 128 so an instruction's cost fits its decoded slot.
#include "niclab/system/core_part.hpp"

#include "niclab/system/config_error.hpp"

namespace niclab::system {

namespace {

using Setter = void (*)(nic::EmbeddedNicConfig&, int64_t);
struct Mapping {
    const char* key;
    const char* unit;
    int64_t min, max;
    Setter apply;
};

// The clock first: core.watchdog_us converts through it.
const std::vector<Mapping>& mappings() {
    static const std::vector<Mapping> table = {
        {"core.clock_mhz", "MHz", 1, 100000, [](auto& c, int64_t v) { c.core.clock_mhz = v; }},
        {"core.cpi_alu", "cycles", 1, 128, [](auto& c, int64_t v) { c.core.cpi_alu = uint32_t(v); }},
        {"core.cpi_load", "cycles", 1, 128, [](auto& c, int64_t v) { c.core.cpi_load = uint32_t(v); }},
        {"core.cpi_store", "cycles", 1, 128, [](auto& c, int64_t v) { c.core.cpi_store = uint32_t(v); }},
        {"core.cpi_mul", "cycles", 1, 128, [](auto& c, int64_t v) { c.core.cpi_mul = uint32_t(v); }},
        {"core.cpi_div", "cycles", 1, 128, [](auto& c, int64_t v) { c.core.cpi_div = uint32_t(v); }},
        {"core.cpi_csr", "cycles", 1, 128, [](auto& c, int64_t v) { c.core.cpi_csr = uint32_t(v); }},
        {"core.taken_branch_penalty", "cycles", 0, 1000, [](auto& c, int64_t v) { c.core.taken_branch_penalty = uint32_t(v); }},
        {"core.trap_penalty", "cycles", 0, 1000, [](auto& c, int64_t v) { c.core.trap_penalty = uint32_t(v); }},
        {"core.icache.size_bytes", "bytes", 4, 16777216, [](auto& c, int64_t v) { c.core.icache.size_bytes = uint32_t(v); }},
        {"core.icache.line_bytes", "bytes", 4, 4096, [](auto& c, int64_t v) { c.core.icache.line_bytes = uint32_t(v); }},
        {"core.icache.ways", "ways", 1, 4096, [](auto& c, int64_t v) { c.core.icache.ways = uint32_t(v); }},
        {"core.dcache.size_bytes", "bytes", 4, 16777216, [](auto& c, int64_t v) { c.core.dcache.size_bytes = uint32_t(v); }},
        {"core.dcache.line_bytes", "bytes", 4, 4096, [](auto& c, int64_t v) { c.core.dcache.line_bytes = uint32_t(v); }},
        {"core.dcache.ways", "ways", 1, 4096, [](auto& c, int64_t v) { c.core.dcache.ways = uint32_t(v); }},
        {"core.sram_read_cycles", "cycles", 0, 127, [](auto& c, int64_t v) { c.core.sram_read_cycles = uint32_t(v); }},
        {"core.sram_write_cycles", "cycles", 0, 1000, [](auto& c, int64_t v) { c.core.sram_write_cycles = uint32_t(v); }},
        {"core.uncached_fetch_fills_line", "flag", 0, 1, [](auto& c, int64_t v) { c.core.uncached_fetch_fills_line = v != 0; }},
        {"core.line_beat_cycles", "cycles", 0, 1000, [](auto& c, int64_t v) { c.core.line_beat_cycles = uint32_t(v); }},
        {"core.bus_bytes_per_beat", "bytes", 1, 4096, [](auto& c, int64_t v) { c.core.bus_bytes_per_beat = uint32_t(v); }},
        {"core.posted_writes", "writes", 1, 64, [](auto& c, int64_t v) { c.core.posted_writes = uint32_t(v); }},
        {"core.watchdog_us", "us", 0, 1000000000, [](auto& c, int64_t v) { c.core.watchdog_cycles = uint64_t(v * c.core.clock_mhz); }},
        {"mmio.read_latency_ns", "ns", 0, 1000000000, [](auto& c, int64_t v) { c.mmio.read_latency = Time::ns(v); }},
        {"mmio.write_occupancy_ns", "ns", 0, 1000000000, [](auto& c, int64_t v) { c.mmio.write_occupancy = Time::ns(v); }},
    };
    return table;
}

void check_cache_geometry(const Preset& p, const std::string& cache) {
    int64_t size = p.integer(cache + ".size_bytes"), line = p.integer(cache + ".line_bytes"), ways = p.integer(cache + ".ways");
    if (line & (line - 1)) throw ConfigError("set." + cache + ".line_bytes", "must be a power of two");
    if (size % (line * ways) != 0) {
        // Blame the key the user changed: that is the one to look at.
        std::string key = cache + ".size_bytes";
        for (const char* k : {".ways", ".line_bytes"})
            for (const auto& param : p.parameters())
                if (param.key == cache + k && param.source == "override") key = param.key;
        throw ConfigError("set." + key, "size_bytes (" + std::to_string(size) + ") must be a multiple of line_bytes x ways (" +
                                            std::to_string(line * ways) + ")");
    }
}

}  // namespace

std::vector<ParameterDecl> core_parameters() {
    std::vector<ParameterDecl> out;
    for (const Mapping& m : mappings()) out.push_back({m.key, m.unit, double(m.min), double(m.max), true});
    return out;
}

void apply_core_parameters(const Preset& preset, nic::EmbeddedNicConfig& cfg) {
    for (const Mapping& m : mappings()) m.apply(cfg, preset.integer(m.key));
    for (const char* cache : {"core.icache", "core.dcache"}) check_cache_geometry(preset, cache);
}

}  // namespace niclab::system
