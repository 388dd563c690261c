#pragma once
// The DSNIC's Linux driver (seed 003 §5, §6, §7.2, §8.3): every message function lives
// in the kernel, behind system calls; the interrupt handler does all the packet work.
//
// Protocol (§6): a message goes as packets of the maximum size plus one last packet of
// at most that size (L550); packets carry 3 protocol characters (wire.hpp) and may
// arrive out of order (adaptive routing, L554): the receiver places each by its
// sequence number. A sliding window of window_packets unacknowledged packets, with
// cumulative acknowledgements every ack_every packets and at the end of a message
// (L558: "each acknowledgement packet can acknowledge a sequence of packets").
// End-to-end flow control by credits (L570: "the receiver allows a sender to start
// message transmission by sending it a credit"): one credit per posted receive buffer,
// so a sender starts a message only into a buffer the receiver has ready. The DS
// network loses nothing (D18, L562), so nothing is retransmitted; a window or credit
// that is too small slows the sender and never drops data.
//
// Interrupt handler (§8.3 L670-672): entered on an S5933 interrupt, it handles one
// event at a time — a header in the mailbox, there as soon as the packet's header is
// across the link (set up the receive DMA straight into the user buffer while the data
// is still coming, L598-600), a receive DMA finished (the packet is in: read its
// length from the mailbox), a transmit DMA finished, a packet that may start
// (window, credit, outfifo room), an acknowledgement or credit to send — and then
// checks the board again (a PIO read of its status), until there is nothing left or it has handled
// events_per_interrupt events, so it does not hold the timer interrupt off (L672).
// Each step charges its PIO reads (bus.pio_read_small_ns), posted PIO stores
// (bus.store_issue_ns) and driver work (dsnic.driver_event_ns); its effect on the
// board happens when that work is done.
//
// Blocking calls deschedule the process (L614): it waits on its channel's condition
// and the handler wakes it.
#include <cstdint>
#include <map>
#include <span>
#include <memory>
#include <utility>
#include <vector>

#include "niclab/host/condition.hpp"
#include "niclab/host/host_cpu.hpp"
#include "niclab/sim/ring_queue.hpp"
#include "niclab/systems/dsnic/board.hpp"

namespace niclab::dsnic {

struct DriverCounters {
    uint64_t interrupts = 0;       // handler entries
    uint64_t events = 0;           // events handled in them
    uint64_t packets = 0;          // data packets handled in them (received + sent)
    uint64_t capped = 0;           // handler exits with events left (the cap)
    uint64_t max_packets_per_interrupt = 0;
    uint64_t syscalls = 0;
    uint64_t acks_sent = 0, credits_sent = 0;
    uint64_t max_unacked = 0;      // most packets a sender had out unacknowledged
    uint64_t out_of_order = 0;     // data packets that arrived ahead of an earlier one
};

struct Message {
    uint64_t bytes = 0;
    uint32_t tag = 0;
};

class Driver {
public:
    // A virtual link between this node and `peer` (seed 003 L528: "the CSP channels are
    // virtual links"), with its receive buffer (`rx_capacity` rounded up to whole
    // packets, so flush's padding stays inside it).
    struct Channel {
        uint8_t vl = 0;
        uint32_t peer = 0;
        bool opened = false;  // a credit may come before this side opened the link
        // sender
        // Packet counts are kept in 64 bits; the wire carries their low 16 bits, which
        // is unambiguous within a window.
        struct Send {
            uint64_t addr = 0, bytes = 0;
            uint64_t packets = 1, next = 0, first = 0;
            uint32_t tag = 0;
            bool started = false;
            bool buffered = false;  // from the channel's kernel buffer (bsend)
        };
        sim::RingQueue<Send> sends;
        uint64_t next_packet = 0, acked = 0;  // packets sent / acknowledged
        uint16_t started = 0, credits = 0;  // messages started / allowed (cumulative)
        // receiver
        uint64_t rx_addr = 0, rx_capacity = 0;
        bool posted = false;
        uint64_t first = 0;                 // the posted message's first packet
        uint64_t contiguous = 0;            // every packet before this one arrived
        std::vector<bool> arrived;          // by index in the message
        uint64_t received = 0, total = 0;   // total: 0 until the last packet arrived
        uint64_t bytes = 0;
        uint32_t tag = 0;
        uint32_t since_ack = 0;
        uint16_t posts = 0;                 // credits granted (cumulative)
        bool ack_due = false, credit_due = false;
        sim::RingQueue<Message> complete;
        host::Condition changed;
        // The kernel buffer of buffered sends: filled from `kernel_used` up, reset to
        // the start once no buffered send is pending.
        uint64_t kernel_addr = 0, kernel_used = 0;
        uint32_t buffered_pending = 0;
    };

    Driver(Board& board, host::HostCpu& cpu, const bus::PciParams& pci, const DriverParams& p, uint32_t node);

    // System calls of the CSP library (csp.hpp).
    Channel& open(host::ProcessContext& ctx, uint8_t vl, uint32_t peer, uint64_t rx_addr, uint64_t rx_capacity);
    // Queues a message and starts what can start; returns at once (the buffer is the
    // caller's until send_done()).
    void send(host::ProcessContext& ctx, Channel& ch, uint64_t addr, uint64_t bytes, uint32_t tag);
    // Asynchronous (buffered) send (seed 003 L526: "buffered sends that may finish
    // before the receive"): copies the message into the channel's kernel buffer (host
    // copy bandwidth) and queues it from there; the caller's buffer is free on return.
    // Blocks while the kernel buffer has no room; DsnicError if it never can.
    void bsend(host::ProcessContext& ctx, Channel& ch, uint64_t addr, uint64_t bytes, uint32_t tag);
    bool sends_done(const Channel& ch) const { return ch.sends.empty(); }
    // Blocks until every send of `ch` is acknowledged.
    void wait_sends(host::ProcessContext& ctx, Channel& ch);
    // Blocks until a message is in the receive buffer; takes it and posts the buffer
    // again (a credit for the next one). The data stays valid until the next credit's
    // message arrives, which takes a round trip.
    Message recv(host::ProcessContext& ctx, Channel& ch);
    // One system call: a message is there (recv will not block).
    bool probe(host::ProcessContext& ctx, Channel& ch);
    // Active channel selection (seed 003 L526, occam's PRI ALT): blocks until one of
    // `channels` has a message and returns the first such one's index; recv takes it.
    std::size_t alt(host::ProcessContext& ctx, std::span<Channel* const> channels);

    const DriverCounters& counters() const { return counters_; }
    const DriverParams& params() const { return p_; }
    const Board& board() const { return board_; }
    uint32_t node() const { return node_; }

private:
    enum class Event : uint8_t { none, rx_done, tx_done, header, control, tx_start };
    struct Rx {
        Channel* ch = nullptr;
        uint64_t index = 0;
        uint32_t length = 0, tag = 0;
        bool last = false;
    };

    void interrupt(host::InterruptContext& ic);
    void check(host::InterruptContext& ic);
    void step(host::InterruptContext& ic);
    Event next_event() const;
    Time cost(Event e) const;
    void apply(Event e);
    Channel* sendable() const;
    Channel* control_due() const;
    uint32_t packet_length(const Channel::Send& s, uint64_t index) const;
    void on_header(const MailboxEntry& m);
    void on_rx_done();
    void start_tx(Channel& ch);
    void send_control(Channel& ch);
    // In a system call: start what can start now unless the handler is running.
    Time kick_cost() const;
    void kick();
    Channel& channel_of(const MailboxEntry& m);
    [[noreturn]] void fault(const std::string& what) const;

    Board& board_;
    host::HostCpu& cpu_;
    DriverParams p_;
    uint32_t node_;
    Time read_cost_, store_cost_;
    std::map<std::pair<uint32_t, uint8_t>, std::unique_ptr<Channel>> channels_;
    Rx rx_;
    uint32_t events_now_ = 0, packets_now_ = 0;
    DriverCounters counters_;
    host::Condition any_message_;  // a message completed on some channel (alt)
    std::vector<uint8_t> bsend_copy_;  // a buffered send's bytes on their way into the kernel buffer
};

}  // namespace niclab::dsnic
