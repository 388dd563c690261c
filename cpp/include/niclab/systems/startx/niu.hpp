#pragma once
// The StarT-X NIU (seed 002 §4-5) as a fixed-function C++ model: an AMCC S5933 front end
// on 32-bit 33 MHz PCI (a bus::PciTarget on a bus::PciBus), two transmit and two receive
// queues (high and low priority) of twenty messages each (002 §4 L126), a back end that
// appends / checks a 16-bit CRC per message and moves 32 bits at 40 MHz into a 16-bit
// 80 MHz Arctic link (002 §4 L130, L139), and three message-passing mechanisms:
//
//  PIO (§5.1)  The host stores message words into a transmit queue's page; a message
//              launches by itself when its last word is enqueued. Loads from a receive
//              queue's page dequeue words. One status word packs all four counts.
//  VI  (§5.2)  Transmit: messages written consecutively into pinned host memory, then a
//              driver call (vi_transmit) has the TX DMA stream the batch into the
//              high-priority queue. Receive: the driver arms the RX DMA once with a base
//              and size; high-priority messages then fill it sequentially.
//              assumption (how the host sees an arrival, not in 002): the RX DMA writes a
//              message's words 1..n-1 first and its header word 0 last, as a separate
//              transaction; word 0 is never zero (its length field is >= 2), so a host
//              that zeroes the buffer and polls the next header word sees only whole
//              messages. Messages are packed back to back (n_words * 4 bytes each); when
//              the next message does not fit the rest of the buffer the engine stops
//              (status vi_rx_exhausted) and messages wait in the queue until re-armed.
//  RDMA (§5.3) Two header registers; the TX DMA streams host memory and the NIU inserts
//              the header words before every chunk of rdma_chunk_words data words (the
//              length field is set per chunk; a last chunk of one word is padded to two).
//              The receiver strips the headers and writes the data into the window its
//              driver opened (rdma_open_window), in order; the window closes itself when
//              full (rdma_window_done). Exclusivity (RdmaError): RDMA needs a window
//              opened for that sender; no random up-route; no VI or PIO high-priority
//              traffic while RDMA owns the high-priority path; low-priority PIO is free.
//
// Register map: every register is aliased over a whole page (002 §5.1 L157/L164), so
// any aligned word of page r is register r; consecutive stores then merge into PCI bursts
// and a 64-byte load dequeues 16 words at once.
//   page 0 TX high   page 1 TX low    (write: enqueue words)
//   page 2 RX high   page 3 RX low    (read: dequeue words; EmptyQueueError when empty)
//   page 4 status    (read: Status::pack)
//   page 5 RDMA header 0, page 6 RDMA header 1 (write)
//   page 7 control   (driver only; NOT aliased: word index = ControlWord)
//
// Timing: PIO words reach the queues when their PCI transaction completes (bus model).
// A launched message is seen by the back end after sync_cycles of the 40 MHz queue clock
// (clock-domain crossing); the back end then holds the link for link_time(m) =
// link_bytes / (2 B * 80 MHz), injecting the message at its start. An arriving message
// (offered by the port when it has fully arrived, CRC checked) becomes visible to the host
// sync_cycles later. High priority goes first when both transmit queues are ready.
#include <array>
#include <cstdint>
#include <span>
#include <string>

#include "niclab/bus/pci.hpp"
#include "niclab/host/condition.hpp"
#include "niclab/host/interrupt.hpp"
#include "niclab/sim/kernel.hpp"
#include "niclab/sim/ring_queue.hpp"
#include "niclab/sim/time.hpp"
#include "niclab/systems/startx/message.hpp"
#include "niclab/systems/startx/port.hpp"

namespace niclab::startx {

struct NiuParams {
    uint32_t node_id = 0;
    // 002 §4 L126: "Each queue holds a maximum of twenty messages".
    uint32_t queue_messages = 20;
    // digest A-S3 (inference from "40 message sends and 32 receives", 002 §5.1 L166): the
    // status word's receive counts saturate at 16 per queue.
    uint32_t rx_count_saturation = 16;
    // 002 §4 L139: "the 32-bit 40 MHz message queue interface".
    double queue_clock_hz = 40e6;
    // 002 §4 L130: "16 differential PECL signals in parallel clocked at 80 MHz" = 160 MB/s.
    double link_clock_hz = 80e6;
    uint32_t link_width_bytes = 2;
    // assumption: crossing between the 33 MHz PCI and the 40 MHz queue clock domains
    // through the IDT723631's synchronized flags takes two clocks of the reading side;
    // not itemized in 002 (digest: L is a check, no per-stage latency is fitted to it).
    uint32_t sync_cycles = 2;
    // assumption: the register pages are UltraSPARC base pages (8 KB).
    uint64_t page_bytes = 8192;
    // digest A-S7: RDMA packs 22 data words (88 B) per 96-byte message; 002 says only
    // "at the appropriate intervals".
    uint32_t rdma_chunk_words = kMaxPayloadWords;

    // StartxError naming the first bad field.
    void validate() const;
};

// Registers, as page indices in the NIU's window.
enum class Reg : uint32_t {
    tx_high = 0, tx_low = 1, rx_high = 2, rx_low = 3, status = 4,
    rdma_header0 = 5, rdma_header1 = 6, control = 7,
};
inline constexpr uint32_t kRegisterPages = 8;

// Word indices inside the control page (driver registers; writes take effect when they
// reach the NIU). Writing tx_dma_bytes starts a VI transmit of the batch at tx_dma_addr;
// writing rdma_tx_bytes starts an RDMA transmit from tx_dma_addr; writing rx_dma_size
// arms VI receive at rx_dma_base (0 disarms); writing rdma_window_size opens an RDMA
// window at rdma_window_base for rdma_window_sender (0 closes it); control bit 0 enables
// the receive interrupt (handler set with set_rx_interrupt).
enum class ControlWord : uint32_t {
    control = 0,
    tx_dma_addr_lo = 1, tx_dma_addr_hi = 2, tx_dma_bytes = 3,
    rx_dma_base_lo = 4, rx_dma_base_hi = 5, rx_dma_size = 6,
    rdma_tx_bytes = 7,
    rdma_window_base_lo = 8, rdma_window_base_hi = 9, rdma_window_sender = 10,
    rdma_window_size = 11,
};

// The status word (002 §5.1 L166): the number of messages each transmit queue guarantees
// to accept and the number of whole messages waiting in each receive queue (saturated).
// assumption: the layout (002 gives none):
//   4..0 tx high space   9..5 tx low space   14..10 rx high count   19..15 rx low count
//   24 tx DMA busy   25 VI rx armed   26 VI rx exhausted   27 RDMA window open
//   28 RDMA window done   29 RDMA tx active
struct Status {
    std::array<uint8_t, kPriorities> tx_space{};  // indexed by Priority
    std::array<uint8_t, kPriorities> rx_count{};
    bool tx_dma_busy = false;
    bool vi_rx_armed = false;
    bool vi_rx_exhausted = false;
    bool rdma_window_open = false;
    bool rdma_window_done = false;
    bool rdma_tx_active = false;

    uint32_t pack() const;
    static Status unpack(uint32_t word);
};

struct NiuCounters {
    std::array<uint64_t, kPriorities> messages_launched{};  // complete in a TX queue
    std::array<uint64_t, kPriorities> messages_injected{};  // handed to the port
    std::array<uint64_t, kPriorities> messages_accepted{};  // taken from the port
    std::array<uint64_t, kPriorities> messages_refused{};   // RX queue full
    uint64_t crc_errors = 0;          // dropped on arrival
    uint64_t words_written = 0;       // PIO words enqueued
    uint64_t words_read = 0;          // PIO words dequeued
    uint64_t status_reads = 0;
    uint64_t vi_messages_sent = 0;    // by the TX DMA in VI mode
    uint64_t vi_messages_received = 0;  // written to host memory by the RX DMA
    uint64_t rdma_bytes_sent = 0;
    uint64_t rdma_bytes_received = 0;
    uint64_t interrupts = 0;
    uint64_t dropped_after_fault = 0;  // host writes and DMA work ignored by a faulted NIU
};

class Niu final : public bus::PciTarget, public PortListener {
public:
    // Attaches itself to `port`; map it on the bus with bus.map(base, window_bytes(), niu).
    Niu(sim::Kernel& kernel, bus::PciBus& bus, NetworkPort& port, NiuParams params = {});
    Niu(const Niu&) = delete;
    Niu& operator=(const Niu&) = delete;

    const NiuParams& params() const { return params_; }
    sim::Kernel& kernel() { return kernel_; }
    const NiuCounters& counters() const { return counters_; }
    uint64_t window_bytes() const { return params_.page_bytes * kRegisterPages; }
    uint64_t reg_offset(Reg r) const { return params_.page_bytes * uint32_t(r); }
    uint64_t control_offset(ControlWord w) const { return reg_offset(Reg::control) + 4 * uint32_t(w); }
    static Reg tx_reg(Priority p) { return p == Priority::high ? Reg::tx_high : Reg::tx_low; }
    static Reg rx_reg(Priority p) { return p == Priority::high ? Reg::rx_high : Reg::rx_low; }
    // Time the back end holds the link for `m` (its words and the CRC at 160 MB/s).
    Time link_time(const WireMessage& m) const;

    // What a status read returns now, and the exact (unsaturated) counts.
    Status status() const;
    uint32_t tx_space(Priority p) const;
    uint32_t rx_messages(Priority p) const;   // whole messages visible to the host
    uint32_t tx_partial_words(Priority p) const;  // words of a message still being written

    // --- driver operations (what the driver's system call does; effective now) ---
    // The driver's own checks before it stores the registers, so a call that breaks the
    // rules (RDMA beside another high-priority mode, a busy engine) is refused to the
    // calling process with the error the operation would raise.
    void check_vi_transmit(uint64_t host_addr, uint64_t bytes) const;
    void check_rdma_transmit(uint64_t host_addr, uint64_t bytes) const;
    void check_vi_arm_receive(uint64_t base, uint64_t size) const;
    void check_rdma_open_window(uint64_t base, uint64_t size, uint32_t sender) const;
    void vi_transmit(uint64_t host_addr, uint64_t bytes);
    void vi_arm_receive(uint64_t base, uint64_t size);
    void vi_disarm_receive();
    uint64_t vi_receive_offset() const { return vi_rx_.written; }  // bytes filled so far
    void set_rdma_headers(uint32_t header0, uint32_t header1);
    void rdma_transmit(uint64_t host_addr, uint64_t bytes);
    void rdma_open_window(uint64_t base, uint64_t size, uint32_t sender);
    void rdma_close_window();
    bool tx_dma_busy() const { return tx_dma_.mode != TxMode::idle; }
    bool rdma_tx_active() const { return tx_dma_.mode == TxMode::rdma; }
    bool rdma_window_open() const { return window_.open; }
    bool rdma_window_done() const { return window_.done; }
    uint64_t rdma_received() const { return window_.received; }
    uint64_t rdma_window_size() const { return window_.size; }
    uint32_t rdma_window_sender() const { return window_.sender; }
    // Receive interrupt (footnote 3): raised through the bus for every message that
    // becomes visible while enabled. An empty handler disables it.
    void set_rx_interrupt(host::InterruptHandler handler);

    // What the hardware detects on its own (a posted PIO write it cannot take, a VI batch
    // ending inside a message, RDMA into a window its driver did not open) has nobody to
    // throw to: the NIU faults, as a firmware fault stops an embedded-core NIC. A faulted
    // NIU takes no more messages from the network (they wait there), ignores host writes
    // and DMA work (counted), and reports the first error; the System names the node.
    bool faulted() const { return !fault_.empty(); }
    const std::string& fault() const { return fault_; }

    // Notified whenever something a host could observe changes (a message became
    // visible, transmit space freed, a DMA completed), so host code can wait for a state
    // instead of modelling every poll.
    host::Condition& activity() { return activity_; }

    // bus::PciTarget
    void pci_write(uint64_t offset, std::span<const uint8_t> data, Time at) override;
    void pci_read(uint64_t offset, std::span<uint8_t> out, Time at) override;
    // Every page: a read pops receive words, frees space for the network and wakes
    // waiting processes, never reaching into the reading CPU.
    bool read_may_follow_stall(uint64_t offset, std::size_t bytes) const override;
    // PortListener
    void injection_ready(Priority vnet) override;
    bool offer(const WireMessage& m) override;

private:
    // Runs `f`; a StartxError it raises faults the NIU instead of unwinding the kernel.
    template <typename F>
    void guarded(F&& f) {
        if (faulted()) {
            ++counters_.dropped_after_fault;
            return;
        }
        try {
            f();
        } catch (const StartxError& e) {
            fault_ = e.what();
            changed();
        }
    }
    enum class TxMode : uint8_t { idle, vi, rdma };
    struct TxSlot {
        Message msg;
        Time launched_at;
        bool rdma = false;
    };
    struct TxQueue {
        sim::RingQueue<TxSlot> launched;  // whole messages, oldest first; the front may be on the link
        Message partial;               // the message being written
        uint32_t expected = 0;         // its total words once the header is in; 0 = none
        uint32_t used() const { return uint32_t(launched.size()) + (expected ? 1 : 0); }
    };
    struct RxSlot {
        Message msg;
        Time visible_at;
    };
    struct RxQueue {
        sim::RingQueue<RxSlot> messages;
        uint32_t read_words = 0;       // words of the head message already dequeued by PIO
    };
    struct TxDma {
        TxMode mode = TxMode::idle;
        uint64_t addr = 0, end = 0;    // host region still to read
        bool reading = false;
        std::array<uint8_t, kMaxBytes> buffer{};
        uint32_t chunk = 0;            // bytes of the read in flight
        uint32_t header0 = 0, header1 = 0;  // RDMA header registers
    };
    struct ViRx {
        bool armed = false, exhausted = false, busy = false;
        uint64_t base = 0, size = 0, written = 0;
        uint32_t inflight = 0;         // bytes of the message being written
        std::array<uint8_t, kMaxBytes> staging{};
    };
    struct Window {
        bool open = false, done = false, busy = false;
        uint64_t base = 0, size = 0, received = 0;
        uint32_t sender = 0;
        uint32_t inflight = 0;
        std::array<uint8_t, kMaxBytes> staging{};
    };

    Time sync_time() const;
    // The NIU's own work over [start, end], for a latency breakdown (sim/activity.hpp).
    void engine_busy(Time start, Time end);
    void push_word(Priority p, uint32_t word, bool from_dma);
    void launch(Priority p, bool rdma);
    void kick_back_end();
    void back_end_done(Priority p);
    void start_tx_dma(TxMode mode, uint64_t host_addr, uint64_t bytes);
    void tx_dma_step();
    void tx_dma_arrived();
    void tx_dma_words();
    bool take(const WireMessage& m);  // offer()'s work; throws for what faults the NIU
    void rx_visible(Priority p);
    void rx_drain();
    void vi_rx_step();
    void vi_rx_done();
    void rdma_rx_step();
    void rdma_rx_done();
    void pop_rx(Priority p);
    bool rx_head_visible(Priority p) const;
    void write_control(uint32_t word_index, uint32_t value);
    uint32_t read_rx_word(Priority p);
    void changed() { activity_.notify_all(); }

    sim::Kernel& kernel_;
    bus::PciBus& bus_;
    NetworkPort& port_;
    NiuParams params_;
    NiuCounters counters_;
    std::array<TxQueue, kPriorities> tx_;
    std::array<RxQueue, kPriorities> rx_;
    TxDma tx_dma_;
    ViRx vi_rx_;
    Window window_;
    std::array<uint32_t, 12> control_{};
    bool back_end_busy_ = false;
    bool back_end_scheduled_ = false;
    sim::EventId back_end_event_;
    Time back_end_at_;
    bool rx_interrupt_enabled_ = false;
    std::string fault_;  // the first error the NIU detected; empty while it runs
    host::InterruptHandler rx_interrupt_;
    host::Condition activity_;
};

}  // namespace niclab::startx
