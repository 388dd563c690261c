#include "niclab/systems/ds/ds_network.hpp"

#include <algorithm>

#include "niclab/system/host_part.hpp"

namespace niclab::ds {

namespace {
// A C104 has 32 links (seed 003 L502).
constexpr uint32_t kC104Ports = 32;
// Flow control works in units of fct_chars characters (one FCT each), so buffers are
// counted in flits of that many characters.
}  // namespace

std::vector<system::ParameterDecl> network_parameters() {
    return {
        {"net.link_mbit_s", "Mbit/s", 1, 10000, false},
        {"net.token_bits", "bits", 8, 16, true},
        {"net.eop_bits", "bits", 0, 16, true},
        {"net.fct_bits", "bits", 0, 16, true},
        {"net.fct_chars", "characters", 1, 64, true},
        {"net.header_bytes", "bytes", 0, 8, true},
        {"net.protocol_bytes", "bytes", 0, 64, true},
        {"net.max_payload", "bytes", 1, 4096, true},
        {"net.link_latency_ns", "ns", 0, 1e6, false},
        {"net.switch_latency_ns", "ns", 0, 1e6, false},
        {"net.switch_buffer_chars", "characters", 1, 65536, true},
        {"net.switch_output_chars", "characters", 0, 65536, true},
        {"net.receive_buffer_chars", "characters", 1, 1 << 20, true},
        {"net.adaptive_routing", "flag", 0, 1, true},
    };
}

net::NetworkParams network_params(const system::Preset& p) {
    net::NetworkParams np;
    np.link.wire_bits_per_s = uint64_t(p.value("net.link_mbit_s") * 1e6);
    np.link.token_bits = uint32_t(p.integer("net.token_bits"));
    np.link.end_bits = uint32_t(p.integer("net.eop_bits"));
    np.link.fct_bits = uint32_t(p.integer("net.fct_bits"));
    np.link.fct_chars = uint32_t(p.integer("net.fct_chars"));
    // The routing header and the system's protocol characters ride in every packet.
    np.link.overhead_bytes = uint32_t(p.integer("net.header_bytes") + p.integer("net.protocol_bytes"));
    np.link.latency = system::time_ns(p.value("net.link_latency_ns"));
    np.router_delay = system::time_ns(p.value("net.switch_latency_ns"));
    np.max_payload = uint32_t(p.integer("net.max_payload"));
    const auto flit = uint32_t(p.integer("net.fct_chars"));
    np.flit_bytes = flit;
    np.input_buffers = std::max<uint32_t>(1, uint32_t(p.integer("net.switch_buffer_chars")) / flit);
    // 0 characters: no output buffers (the output goes straight onto the cable).
    const auto out_chars = uint32_t(p.integer("net.switch_output_chars"));
    np.output_buffers = out_chars ? std::max<uint32_t>(1, out_chars / flit) : 0;
    np.receive_buffers = std::max<uint32_t>(1, uint32_t(p.integer("net.receive_buffer_chars")) / flit);
    np.switching = net::Switching::Wormhole;
    np.adaptive_up_routing = p.integer("net.adaptive_routing") != 0;
    return np;
}

nlohmann::json default_topology(uint32_t nodes, uint32_t ports) {
    if (nodes < 2) return nullptr;
    if (nodes == 2) return ports == 1 ? nlohmann::json{{"kind", "direct"}} : nlohmann::json{{"kind", "direct"}, {"cables", ports}};
    const uint32_t terminals = nodes * ports;
    if (terminals <= kC104Ports) return {{"kind", "crossbar"}, {"ports", terminals}};
    // A two-level Clos of C104s: leaves with 16 terminals and 16 up-links (seed 003 §6.1).
    return {{"kind", "clos"}, {"ports", kC104Ports}};
}

}  // namespace niclab::ds
