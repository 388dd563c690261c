// The DSNIC's parameters: their ranges and where each preset value goes. Values and
// citations are in presets/dsnic.json.
#include "niclab/systems/dsnic/params.hpp"

#include <string>

#include "niclab/system/config_error.hpp"
#include "niclab/system/host_part.hpp"
#include "niclab/system/pci_part.hpp"
#include "niclab/systems/ds/ds_network.hpp"

namespace niclab::dsnic {

using system::time_ns;

std::vector<system::ParameterDecl> parameters() {
    std::vector<system::ParameterDecl> d = system::host_parameters();
    for (const auto& v : {system::pci_parameters(), ds::network_parameters()}) d.insert(d.end(), v.begin(), v.end());
    const std::vector<system::ParameterDecl> own = {
        // Checked to be a power of two by packet_bytes() (seed 003 L584).
        {"dsnic.packet_bytes", "bytes", 1, 1 << 20, true},
        {"dsnic.fifo_bytes", "bytes", 64, 1 << 20, true},
        {"dsnic.headlen_entries", "entries", 1, 1 << 16, true},
        {"dsnic.ack_entries", "entries", 1, 1 << 16, true},
        {"dsnic.c101_mb_s", "MB/s", 0.1, 1000, false},
        {"dsnic.driver_event_ns", "ns", 0, 1e7, false},
        {"dsnic.driver_syscall_ns", "ns", 0, 1e7, false},
        {"dsnic.events_per_interrupt", "events", 1, 1 << 20, true},
        {"dsnic.header_reads", "reads", 0, 16, true},
        {"dsnic.length_reads", "reads", 0, 16, true},
        {"dsnic.dma_setup_stores", "stores", 0, 16, true},
        {"dsnic.ack_stores", "stores", 0, 16, true},
        {"dsnic.window_packets", "packets", 1, 32768, true},
        {"dsnic.ack_every", "packets", 1, 32768, true},
        {"dsnic.async_buffer_bytes", "bytes", 0, 1 << 30, true},
    };
    d.insert(d.end(), own.begin(), own.end());
    return d;
}

uint32_t packet_bytes(const system::Preset& p) {
    const int64_t v = p.integer("dsnic.packet_bytes");
    if (v < 8 || v > 4096 || (v & (v - 1)))
        throw system::ConfigError("dsnic.packet_bytes", "the DSNIC supports only powers of two from 8 to 4096 bytes (seed 003 L584, L626), not " +
                                                            std::to_string(v));
    if (v > p.integer("net.max_payload"))
        throw system::ConfigError("dsnic.packet_bytes", std::to_string(v) + " B is larger than the network's net.max_payload of " +
                                                            std::to_string(p.integer("net.max_payload")) + " B");
    return uint32_t(v);
}

BoardParams board_params(const system::Preset& p, uint32_t node) {
    BoardParams b;
    b.node = node;
    b.packet_bytes = packet_bytes(p);
    b.fifo_bytes = uint32_t(p.integer("dsnic.fifo_bytes"));
    b.headlen_entries = uint32_t(p.integer("dsnic.headlen_entries"));
    b.ack_entries = uint32_t(p.integer("dsnic.ack_entries"));
    b.c101_bytes_per_s = p.value("dsnic.c101_mb_s") * 1e6;
    b.header_bytes = uint32_t(p.integer("net.header_bytes"));
    b.protocol_bytes = uint32_t(p.integer("net.protocol_bytes"));
    return b;
}

DriverParams driver_params(const system::Preset& p) {
    DriverParams d;
    d.packet_bytes = packet_bytes(p);
    d.event_work = time_ns(p.value("dsnic.driver_event_ns"));
    d.syscall_work = time_ns(p.value("dsnic.driver_syscall_ns"));
    d.events_per_interrupt = uint32_t(p.integer("dsnic.events_per_interrupt"));
    d.header_reads = uint32_t(p.integer("dsnic.header_reads"));
    d.length_reads = uint32_t(p.integer("dsnic.length_reads"));
    d.dma_setup_stores = uint32_t(p.integer("dsnic.dma_setup_stores"));
    d.ack_stores = uint32_t(p.integer("dsnic.ack_stores"));
    d.window_packets = uint32_t(p.integer("dsnic.window_packets"));
    d.ack_every = uint32_t(p.integer("dsnic.ack_every"));
    d.async_buffer_bytes = uint64_t(p.integer("dsnic.async_buffer_bytes"));
    if (d.ack_every > d.window_packets)
        throw system::ConfigError("dsnic.ack_every", "acknowledging every " + std::to_string(d.ack_every) + " packets with a window of " +
                                                         std::to_string(d.window_packets) +
                                                         " (dsnic.window_packets) would leave the sender waiting for an acknowledgement that never comes");
    return d;
}

}  // namespace niclab::dsnic
