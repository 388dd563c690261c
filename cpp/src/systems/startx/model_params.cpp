// The StarT-X's parameters: their ranges and where each preset value goes (the bus, the
// NIU, the network, JAM). Values and citations are in presets/startx.json.
#include <cmath>

#include "niclab/system/host_part.hpp"
#include "niclab/system/pci_part.hpp"
#include "niclab/systems/startx/arctic_port.hpp"
#include "niclab/systems/startx/model.hpp"

namespace niclab::startx {

using system::time_ns;
using system::time_us;

std::vector<system::ParameterDecl> parameters() {
    std::vector<system::ParameterDecl> d = system::host_parameters();
    const std::vector<system::ParameterDecl> pci = system::pci_parameters();  // the S5933 on PCI
    d.insert(d.end(), pci.begin(), pci.end());
    const std::vector<system::ParameterDecl> own = {
        {"host.clock_hz", "Hz", 1e6, 1e11, false},
        {"niu.queue_messages", "messages", 1, 31, true},
        {"niu.rx_count_saturation", "messages", 1, 31, true},
        {"niu.queue_clock_hz", "Hz", 1e6, 1e10, false},
        {"niu.link_clock_hz", "Hz", 1e6, 1e10, false},
        {"niu.link_width_bytes", "bytes", 1, 16, true},
        {"niu.sync_cycles", "cycles", 0, 64, true},
        {"niu.page_bytes", "bytes", 4096, 65536, true},
        {"niu.rdma_chunk_words", "words", 2, 22, true},
        {"net.link_wire_mb_s", "MB/s", 1, 1e6, false},
        {"net.overhead_bytes", "bytes", 0, 64, true},
        // The NIU's messages are up to 96 bytes and name one of two priorities, so the
        // network must carry at least that.
        {"net.max_payload", "bytes", 96, 4096, true},
        {"net.vnets", "vnets", 2, 4, true},
        {"net.flit_bytes", "bytes", 0, 4096, true},
        {"net.wormhole", "bool", 0, 1, true},
        {"net.router_delay_ns", "ns", 0, 1e6, false},
        {"net.link_latency_ns", "ns", 0, 1e6, false},
        {"net.input_buffers", "messages", 1, 64, true},
        {"net.receive_buffers", "messages", 1, 64, true},
        {"jam.call_cycles", "cycles", 0, 1e6, true},
        {"jam.word_cycles", "cycles", 0, 1e3, true},
        {"jam.poll_cycles", "cycles", 0, 1e6, true},
        {"jam.poll_spin_us", "us", 1, 1e9, false},
        {"jam.driver_work_ns", "ns", 0, 1e9, false},
        {"jam.vi_rx_buffer_bytes", "bytes", 4096, 1ull << 31, true},
        {"jam.rpc_pio_max_bytes", "bytes", 0, 16 << 20, true},
        {"jam.rpc_dispatch_cycles", "cycles", 0, 1e6, true},
        {"jam.rpc_lock_cycles", "cycles", 0, 1e6, true},
    };
    d.insert(d.end(), own.begin(), own.end());
    return d;
}

bus::PciParams pci_params(const system::Preset& p) { return system::pci_params(p); }

NiuParams niu_params(const system::Preset& p, uint32_t node) {
    NiuParams n;
    n.node_id = node;
    n.queue_messages = uint32_t(p.integer("niu.queue_messages"));
    n.rx_count_saturation = uint32_t(p.integer("niu.rx_count_saturation"));
    n.queue_clock_hz = p.value("niu.queue_clock_hz");
    n.link_clock_hz = p.value("niu.link_clock_hz");
    n.link_width_bytes = uint32_t(p.integer("niu.link_width_bytes"));
    n.sync_cycles = uint32_t(p.integer("niu.sync_cycles"));
    n.page_bytes = uint64_t(p.integer("niu.page_bytes"));
    n.rdma_chunk_words = uint32_t(p.integer("niu.rdma_chunk_words"));
    return n;
}

JamParams jam_params(const system::Preset& p) {
    JamParams j;
    j.cycle = Time::ps(std::llround(1e12 / p.value("host.clock_hz")));
    j.call_cycles = uint32_t(p.integer("jam.call_cycles"));
    j.word_cycles = uint32_t(p.integer("jam.word_cycles"));
    j.poll_cycles = uint32_t(p.integer("jam.poll_cycles"));
    j.spin_limit = time_us(p.value("jam.poll_spin_us"));
    j.driver_work = time_ns(p.value("jam.driver_work_ns"));
    return j;
}

RpcParams rpc_params(const system::Preset& p) {
    RpcParams r;
    r.pio_max_bytes = uint32_t(p.integer("jam.rpc_pio_max_bytes"));
    r.dispatch_cycles = uint32_t(p.integer("jam.rpc_dispatch_cycles"));
    r.lock_cycles = uint32_t(p.integer("jam.rpc_lock_cycles"));
    return r;
}

net::NetworkParams network_params(const system::Preset& p) {
    net::NetworkParams np = arctic_network_params(
        p.value("net.link_wire_mb_s"), uint32_t(p.integer("net.overhead_bytes")), time_ns(p.value("net.router_delay_ns")),
        time_ns(p.value("net.link_latency_ns")), uint32_t(p.integer("net.input_buffers")),
        uint32_t(p.integer("net.receive_buffers")));
    np.max_payload = uint32_t(p.integer("net.max_payload"));
    np.vnets = uint32_t(p.integer("net.vnets"));
    np.flit_bytes = uint32_t(p.integer("net.flit_bytes"));
    np.switching = p.integer("net.wormhole") ? net::Switching::Wormhole : net::Switching::VirtualCutThrough;
    return np;
}

}  // namespace niclab::startx
