// GRIM's parameters: their ranges and where each preset value goes. Values and their
// sources are in presets/grim-*.json.
#include <algorithm>

#include "niclab/fw/grim_fw.h"
#include "niclab/fw/lanai.h"
#include "niclab/system/config_error.hpp"
#include "niclab/system/core_part.hpp"
#include "niclab/system/host_part.hpp"
#include "niclab/system/pci_part.hpp"
#include "niclab/systems/grim/grim.hpp"
#include "niclab/systems/grim/sockets.hpp"

namespace niclab::grim {

using system::time_ns;

std::vector<system::ParameterDecl> parameters() {
    std::vector<system::ParameterDecl> d = system::host_parameters();
    for (const auto& v : {system::pci_parameters(), system::core_parameters()}) d.insert(d.end(), v.begin(), v.end());
    const std::vector<system::ParameterDecl> own = {
        {"lanai.sram_bytes", "bytes", 1 << 20, LANAI_SRAM_MAX, true},
        {"lanai.pci_dma_min_ns", "ns", 0, 1e6, false},
        {"lanai.san_dma_min_ns", "ns", 0, 1e6, false},
        {"net.link_mb_s", "MB/s", 1, 10000, false},
        {"net.overhead_bytes", "bytes", 0, 64, true},
        {"net.link_latency_ns", "ns", 0, 1e6, false},
        {"net.switch_latency_ns", "ns", 0, 1e6, false},
        {"net.max_payload", "bytes", 64, 4096, true},
        {"net.input_buffers", "packets", 1, 64, true},
        {"net.link_retry", "bool", 0, 1, true},
        {"net.bit_errors_per_1e15", "per 1e15 bits", 0, 1e15, true},
        {"grim.send_call_ns", "ns", 0, 1e6, false},
        {"grim.poll_ns", "ns", 0, 1e6, false},
        {"grim.handler_call_ns", "ns", 0, 1e6, false},
        {"grim.am_slots", "slots", 1, 4096, true},
        {"grim.lcs", "LCs", 1, GRIM_MAX_LCS, true},
        {"grim.nack_backoff_us", "us", 0, 1e6, false},
        {"grim.resend_timeout_us", "us", 0, 1e6, false},
        {"grim.resend_limit", "resends", 0, 255, true},
        {"grim.isr_work_ns", "ns", 0, 1e6, false},
        {"grim.translate_page_ns", "ns", 0, 1e6, false},
        {"grim.pipelined_fragment_bytes", "bytes", 64, GRIM_MTU, true},
        {"grim.cut_through_fragment_bytes", "bytes", 64, GRIM_MTU, true},
        {"grim.cut_through_segment_bytes", "bytes", 64, 1 << 20, true},
        {"grim.sock_call_ns", "ns", 0, 1e6, false},
        {"grim.sock_block_ns", "ns", 0, 1e6, false},
    };
    d.insert(d.end(), own.begin(), own.end());
    return d;
}

LanaiConfig lanai_config(const system::Preset& p, uint32_t node, uint32_t nodes) {
    LanaiConfig c;
    system::apply_core_parameters(p, c.embedded);
    c.embedded.node_id = node;
    c.embedded.sram.size = uint32_t(p.integer("lanai.sram_bytes"));
    if (c.embedded.sram.size % 4096)
        throw system::ConfigError("lanai.sram_bytes", "must be a whole number of 4 KB pages, not " + std::to_string(c.embedded.sram.size));
    // The boot of a 33 MHz core clearing its .bss takes longer than the SDK's 1 ms.
    c.embedded.boot_timeout = Time::ms(20);
    // App. A gives the minimum time of a whole DMA; the engine's start-up is that less
    // the bus's own time for the smallest (4-byte) transfer, which the bus model adds.
    const bus::PciParams pci = system::pci_params(p);
    const Time pci_min = time_ns(p.value("lanai.pci_dma_min_ns"));
    const Time pci_bus = pci.dma_burst_occupancy(4);
    c.pci_dma_setup = pci_min > pci_bus ? pci_min - pci_bus : Time{};
    const Time san_min = time_ns(p.value("lanai.san_dma_min_ns"));
    const Time san_wire = Time::ps(int64_t(1e12 * double(4 + p.integer("net.overhead_bytes")) / (p.value("net.link_mb_s") * 1e6)));
    c.san_dma_setup = san_min > san_wire ? san_min - san_wire : Time{};
    c.nodes = nodes;
    return c;
}

net::NetworkParams network_params(const system::Preset& p) {
    net::NetworkParams np;
    np.link.payload_bytes_per_s = uint64_t(p.value("net.link_mb_s") * 1e6);
    np.link.overhead_bytes = uint32_t(p.integer("net.overhead_bytes"));
    np.link.latency = time_ns(p.value("net.link_latency_ns"));
    np.router_delay = time_ns(p.value("net.switch_latency_ns"));
    np.max_payload = uint32_t(p.integer("net.max_payload"));
    np.input_buffers = uint32_t(p.integer("net.input_buffers"));
    np.receive_buffers = np.input_buffers;
    np.switching = net::Switching::VirtualCutThrough;
    np.link.link_retry = p.integer("net.link_retry") != 0;
    // The error rate goes on the cables into the NIs only (bit_error_rate(), model.cpp).
    np.link.bit_error_rate = 0.0;
    return np;
}

double bit_error_rate(const system::Preset& p) { return double(p.integer("net.bit_errors_per_1e15")) * 1e-15; }

EndpointParams endpoint_params(const system::Preset& p) {
    EndpointParams e;
    e.send_call = time_ns(p.value("grim.send_call_ns"));
    e.poll = time_ns(p.value("grim.poll_ns"));
    e.handler_call = time_ns(p.value("grim.handler_call_ns"));
    e.am_slots = uint32_t(p.integer("grim.am_slots"));
    e.lcs = uint32_t(p.integer("grim.lcs"));
    if (e.am_slots & (e.am_slots - 1))
        throw system::ConfigError("grim.am_slots", "the firmware indexes the queue with a mask: a power of two, not " + std::to_string(e.am_slots));
    e.nack_backoff_cycles = uint32_t(p.value("grim.nack_backoff_us") * double(p.integer("core.clock_mhz")));
    const double timeout_cycles = p.value("grim.resend_timeout_us") * double(p.integer("core.clock_mhz"));
    if (timeout_cycles >= double(1u << 31))
        throw system::ConfigError("grim.resend_timeout_us", "the firmware times messages with the low word of mtime: at most " +
                                                                std::to_string((1u << 31) / uint64_t(p.integer("core.clock_mhz"))) + " us at this clock");
    e.resend_timeout_cycles = uint32_t(timeout_cycles);
    e.resend_limit = uint32_t(p.integer("grim.resend_limit"));
    e.translator.isr_work = time_ns(p.value("grim.isr_work_ns"));
    e.translator.translate_page = time_ns(p.value("grim.translate_page_ns"));
    // assumption: store-and-forward fragments of 63 KB, "nearly 64 KB (GRIM's MTU)"
    // (L1431), under the 64,572-byte MTU; the other data paths' sizes are the preset's.
    e.fragment_bytes = {63 * 1024, uint32_t(p.integer("grim.pipelined_fragment_bytes")),
                        uint32_t(p.integer("grim.cut_through_fragment_bytes"))};
    e.segment_bytes = uint32_t(p.integer("grim.cut_through_segment_bytes"));
    if (e.segment_bytes % GRIM_QUEUE_ALIGN)
        throw system::ConfigError("grim.cut_through_segment_bytes",
                                  "the library injects 64-byte blocks: a multiple of 64, not " + std::to_string(e.segment_bytes));
    return e;
}

SocketParams socket_params(const system::Preset& p) {
    return {time_ns(p.value("grim.sock_call_ns")), time_ns(p.value("grim.sock_block_ns"))};
}

}  // namespace niclab::grim
