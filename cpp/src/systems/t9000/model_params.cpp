// The T9000's parameters: their ranges and where each preset value goes (the CPU, the
// VCP, the virtual-link library). Values and citations are in presets/t9000-*.json; the
// network's come from the ds-link-c104 part (ds_network.hpp).
#include <cmath>

#include "niclab/system/host_part.hpp"
#include "niclab/systems/ds/ds_network.hpp"
#include "niclab/systems/t9000/model.hpp"

namespace niclab::t9000 {

namespace {
Time cpu_cycle(const system::Preset& p) { return Time::ps(std::llround(1e6 / p.value("cpu.clock_mhz"))); }
}  // namespace

std::vector<system::ParameterDecl> parameters() {
    std::vector<system::ParameterDecl> d = system::host_parameters();
    auto net = ds::network_parameters();
    // The VCP sends packets of at most 32 bytes (seed 003 L77): a preset or an override
    // asking for more is refused by the range, naming the key.
    for (auto& p : net)
        if (p.key == "net.max_payload") p.max = kMaxPacketPayload;
    d.insert(d.end(), net.begin(), net.end());
    const std::vector<system::ParameterDecl> own = {
        {"cpu.clock_mhz", "MHz", 1, 1000, false},
        {"cpu.channel_op_cycles", "cycles", 0, 10000, true},
        {"vcp.packet_send_cycles", "cycles", 0, 100000, true},
        {"vcp.packet_receive_cycles", "cycles", 0, 100000, true},
        {"vcp.ack_cycles", "cycles", 0, 100000, true},
        {"vcp.byte_cycles", "cycles", 0, 1000, true},
        {"vcp.pipelines", "engines", 1, 2, true},
        {"vcp.engine_per_link", "flag", 0, 1, true},
        {"t9000.links", "links", 1, kMaxLinks, true},
        {"t9000.external_data", "flag", 0, 1, true},
        {"mem.internal_word_cycles", "cycles", 1, 1000, true},
        {"mem.external_word_cycles", "cycles", 1, 1000, true},
        {"mem.cache_bytes", "bytes", 1, 16384, true},
        {"cpu.memory_percent", "%", 0, 100, true},
        {"cpu.working_set_bytes", "bytes", 0, 16384, true},
    };
    d.insert(d.end(), own.begin(), own.end());
    return d;
}

VcpParams vcp_params(const system::Preset& p, uint32_t node) {
    VcpParams v;
    v.node = node;
    v.cycle = cpu_cycle(p);
    v.packet_send_cycles = uint32_t(p.integer("vcp.packet_send_cycles"));
    v.packet_receive_cycles = uint32_t(p.integer("vcp.packet_receive_cycles"));
    v.ack_cycles = uint32_t(p.integer("vcp.ack_cycles"));
    v.byte_cycles = uint32_t(p.integer("vcp.byte_cycles"));
    v.pipelines = uint32_t(p.integer("vcp.pipelines"));
    v.max_payload = uint32_t(p.integer("net.max_payload"));
    v.engine_per_link = p.integer("vcp.engine_per_link") != 0;
    v.terminals = {node + 1, links(p)};  // the system's node count is the caller's (T9000Node)
    return v;
}

MemoryParams memory_params(const system::Preset& p) {
    MemoryParams m;
    m.cycle = cpu_cycle(p);
    m.internal_word_cycles = uint32_t(p.integer("mem.internal_word_cycles"));
    m.external_word_cycles = uint32_t(p.integer("mem.external_word_cycles"));
    m.cache_bytes = uint32_t(p.integer("mem.cache_bytes"));
    m.external_data = p.integer("t9000.external_data") != 0;
    m.cpu_memory_percent = uint32_t(p.integer("cpu.memory_percent"));
    m.working_set_bytes = uint32_t(p.integer("cpu.working_set_bytes"));
    return m;
}

uint32_t links(const system::Preset& p) { return uint32_t(p.integer("t9000.links")); }

VlCosts vl_costs(const system::Preset& p) {
    return {cpu_cycle(p) * p.integer("cpu.channel_op_cycles"), system::time_ns(p.value("host.context_switch_ns"))};
}

}  // namespace niclab::t9000
