#pragma once
// The DSNIC's own parameters (seed 003 Part 2 §3, Part 3 §3-§7): the board (S5933 on
// PCI, one STC101 link adaptor, the FPGA firmware's FIFOs) and the Linux driver and
// protocol on the host. Values and citations are in presets/dsnic.json; the host, the
// PCI bus and the DS-link network are shared parts (host_part, pci_part, ds_network).
#include <cstdint>
#include <vector>

#include "niclab/sim/error.hpp"
#include "niclab/sim/time.hpp"
#include "niclab/system/preset.hpp"
#include "niclab/system/system_model.hpp"

namespace niclab::dsnic {

// A DSNIC fault: a packet the board or driver cannot place (the protocol was broken).
class DsnicError : public Error {
public:
    using Error::Error;
};

struct BoardParams {
    uint32_t node = 0;
    // The maximum packet size of the run (seed 003 L584: powers of two only; L626 tests
    // 8..4096). Every receive DMA moves this many bytes (flush, L600).
    uint32_t packet_bytes = 512;
    uint32_t fifo_bytes = 1024;       // infifo and outfifo (L606)
    uint32_t headlen_entries = 128;   // headlenfifo depth (not in the seed: D11)
    uint32_t ack_entries = 16;        // ackfifo depth (not in the seed: D11)
    double c101_bytes_per_s = 9.2e6;  // STC101 maximum throughput (L636)
    uint32_t header_bytes = 2;        // routing header characters
    uint32_t protocol_bytes = 3;      // protocol characters per packet (L576)
};

struct DriverParams {
    uint32_t packet_bytes = 512;
    Time event_work;                  // driver software per handled event
    Time syscall_work;                // driver software per library call
    uint32_t events_per_interrupt = 200;  // the cap of L672
    uint32_t header_reads = 1;        // PIO reads of the mailbox per header
    uint32_t length_reads = 1;        // PIO reads of the mailbox for a data packet's length, once it is in
    uint32_t dma_setup_stores = 3;    // PIO stores to start a DMA (address, count, go)
    uint32_t ack_stores = 1;          // PIO stores to put a packet into the ackfifo
    uint32_t window_packets = 32;     // unacknowledged packets a sender may have out
    uint32_t ack_every = 8;           // the receiver acknowledges every this many packets
    uint64_t async_buffer_bytes = 65536;  // kernel buffer per channel for buffered sends
};

// Every DSNIC parameter with its range (host, PCI, DS network and the DSNIC's own).
std::vector<system::ParameterDecl> parameters();
// ConfigError naming dsnic.packet_bytes unless it is a power of two in 8..4096 and fits
// the network's net.max_payload.
uint32_t packet_bytes(const system::Preset& preset);
BoardParams board_params(const system::Preset& preset, uint32_t node);
DriverParams driver_params(const system::Preset& preset);

}  // namespace niclab::dsnic
