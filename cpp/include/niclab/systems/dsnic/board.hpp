#pragma once
// The DSNIC board (seed 003 Part 2 §3, Part 3 §3 and §7.1, Fig. 5): an AMCC S5933 on the
// host's PCI bus, one STC101 DS-link adaptor driven by DMA (L608: "the firmware only
// supports one C101 efficiently, i.e., with a DMA driven interface"), and the FPGA
// firmware between them, each block a small class:
//
//   link -> C101 -> comin -+-> headlenfifo (protocol characters, length) -> S5933 mailbox -> interrupt
//                          +-> infifo (data) -> flush (pads to the packet size) -> S5933 write DMA -> host
//
// comin sees a packet's header as soon as it is across the link (the network's
// head_arrived), before its data: the header goes to the mailbox and interrupts then,
// and the receive DMA the driver sets up on it streams the data to the host as it
// comes in, flush's padding after the end-of-packet (L598-600: the DMA is set up
// "as soon as the header of the packet has been received", to avoid store-and-forward).
//   host -> S5933 read DMA -> outfifo --+
//   host -> PIO -> ackfifo -------------+-> comout (ackfifo first) -> C101 -> link
//
// mux: the S5933's two DMA channels reach the FIFOs independently, so transmission
// and reception interleave (L606); passthru: register access to the C101 (L606).
// Real bytes: data DMA'd from host memory is what the link carries and what the
// receive DMA writes back (plus flush's padding, up to the packet size).
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "niclab/bus/pci.hpp"
#include "niclab/net/network.hpp"
#include "niclab/sim/ring_queue.hpp"
#include "niclab/systems/dsnic/fifo.hpp"
#include "niclab/systems/dsnic/params.hpp"
#include "niclab/systems/dsnic/wire.hpp"

namespace niclab::dsnic {

struct BoardCounters {
    uint64_t packets_sent = 0, packets_received = 0;  // data packets
    uint64_t control_sent = 0, control_received = 0;  // ack and credit packets
    uint64_t rx_dma_bytes = 0;                        // full packets, padding included
    uint64_t padding_bytes = 0;                       // added by flush
    uint64_t tx_dma_bytes = 0;
    uint64_t link_refusals = 0;                       // packets held in the link: a FIFO was full
    uint64_t events = 0;                              // add-on events signalled to the S5933
};

// One header as the driver reads it from the mailbox: comin's split-off protocol
// characters and the length counted at the end-of-packet (L598). The length is known
// to the model at the header; the driver reads it only once the packet is in (its
// receive DMA done), as it follows the header through the headlenfifo at the EOP.
struct MailboxEntry {
    Protocol proto;
    uint32_t length = 0;
    uint32_t source = 0;
    uint32_t tag = 0;
};

// The AMCC S5933 (seed 003 L367: "PCI master, slave, DMA, interrupt and mailbox
// facilities"): the interrupt line with its in-service state, and its two bus-master
// DMA channels (add-on to host = write, host to add-on = read) on the PCI bus.
class S5933 {
public:
    S5933(bus::PciBus& bus) : bus_(bus) {}
    // The driver's interrupt service routine.
    void set_handler(host::InterruptHandler h) { handler_ = std::move(h); }
    // An add-on event (mailbox full, DMA done, FIFO room): asserts INTA unless it is
    // already asserted or the driver is servicing the board (its loop will see it).
    void request_interrupt();
    // The driver's service routine starts / ends (it acknowledged the interrupt).
    void begin_service() { in_service_ = true; }
    void end_service() { in_service_ = false; }
    bool in_service() const { return in_service_; }
    uint64_t interrupts() const { return interrupts_; }
    bus::PciBus& bus() { return bus_; }

private:
    bus::PciBus& bus_;
    host::InterruptHandler handler_;
    bool asserted_ = false;
    bool in_service_ = false;
    uint64_t interrupts_ = 0;
};

// The STC101 parallel-to-serial DS-link adaptor (L375): at most c101_bytes_per_s of
// characters through it (L636: "the maximum C101 throughput of 9.2 Mbytes/s"), one
// packet at a time, on top of the link's own token timing (the network's). It passes
// a received packet's header on when it is in (head_arrived), its data as it comes.
class C101 final : public net::NetworkEndpoint {
public:
    C101(sim::Kernel& kernel, net::Network* network, const BoardParams& p, PacketBuffers& buffers);
    ~C101() override;
    bool idle() const { return !busy_; }
    // Starts sending a packet (the caller checked idle()); `sent` runs when the C101
    // can take the next one. Stored inline, as the PCI bus's DMA completions are: one a packet.
    void send(FifoPacket packet, sim::Callback sent);
    // Where received headers go (comin): false holds the packet in the link.
    using Receiver = std::function<bool(const net::PacketView&, Time tail_at)>;
    void set_receiver(Receiver r) { receiver_ = std::move(r); }
    void receive_space_freed();
    // passthru: the C101's registers as the host reads them (status: link running).
    uint32_t read_register(uint32_t reg) const;
    bool wants_heads() const override { return true; }
    bool head_arrived(const net::PacketView& packet, Time tail_at) override;
    // The tail: the header went on at head_arrived (or, for a packet handed over whole,
    // goes on now).
    bool deliver(const net::PacketView& packet) override;
    void injection_ready() override;

private:
    void try_inject();
    sim::Kernel& kernel_;
    net::Network* network_;
    BoardParams p_;
    PacketBuffers& buffers_;  // a packet's bytes go back once injected (the network has them)
    bool busy_ = false;
    Time free_at_;
    FifoPacket packet_;
    sim::Callback sent_;
    Receiver receiver_;
    bool refused_ = false;
    bool head_in_ = false;  // the packet now arriving had its header passed on
};

class Board {
public:
    Board(sim::Kernel& kernel, bus::PciBus& bus, net::Network* network, const BoardParams& p);

    const BoardParams& params() const { return p_; }
    S5933& s5933() { return s5933_; }
    host::HostMemory& memory() { return s5933_.bus().memory(); }
    C101& c101() { return c101_; }
    const BoardCounters& counters() const { return counters_; }
    // The driver's hook for every add-on event (the S5933 raises the interrupt).
    void set_event(std::function<void()> e) { event_ = std::move(e); }

    // --- receive: comin, headlenfifo, infifo, flush, write DMA ---
    bool mailbox_full() const { return !headlen_.empty(); }
    MailboxEntry mailbox_read();
    bool rx_busy() const { return rx_busy_; }
    // flush pads the infifo's head packet to the packet size; the write DMA moves that
    // full packet to host memory at `addr` (L600: every receive DMA is a full packet),
    // each burst once its bytes are in: data as it arrives, the padding after the EOP.
    void start_rx_dma(uint64_t addr);
    bool rx_done() const { return rx_done_; }
    void take_rx_done() { rx_done_ = false; }

    // --- transmit: read DMA, outfifo, ackfifo, comout ---
    bool outfifo_room(uint32_t bytes) const { return outfifo_.fits(bytes); }
    bool tx_busy() const { return tx_busy_; }
    // The driver wrote the protocol characters and the routing header; the read DMA
    // brings `bytes` of data from host memory into the outfifo.
    void start_tx_dma(Protocol proto, uint32_t dst, uint64_t addr, uint32_t bytes, uint32_t tag);
    bool tx_done() const { return tx_done_; }
    void take_tx_done() { tx_done_ = false; }
    bool ackfifo_room() const { return ackfifo_.size() < p_.ack_entries; }
    // An ack or credit packet written into the ackfifo by PIO.
    void push_control(Protocol proto, uint32_t dst);
    // The driver waits for room in the outfifo or the ackfifo: one event when there is.
    void want_room() { want_room_ = true; }

private:
    bool comin(const net::PacketView& packet, Time tail_at);
    void rx_burst();
    void comout();
    void event();

    sim::Kernel& kernel_;
    BoardParams p_;
    PacketBuffers buffers_;  // the data packets' bytes (before c101_, which uses it)
    S5933 s5933_;
    C101 c101_;
    BoardCounters counters_;
    std::function<void()> event_;

    sim::RingQueue<MailboxEntry> headlen_;
    PacketFifo infifo_;
    bool rx_busy_ = false, rx_done_ = false;
    std::vector<uint8_t> rx_block_;  // flush's output: one full packet
    // The receive DMA under way: to host address rx_addr_, rx_moved_ bytes done; the
    // packet's data (rx_length_ bytes) streams in from rx_head_at_ to rx_tail_at_.
    uint64_t rx_addr_ = 0;
    uint32_t rx_moved_ = 0, rx_length_ = 0;
    Time rx_head_at_{}, rx_tail_at_{};

    PacketFifo outfifo_;
    sim::RingQueue<FifoPacket> ackfifo_;
    bool tx_busy_ = false, tx_done_ = false;
    bool want_room_ = false;
};

}  // namespace niclab::dsnic
