#pragma once
// JAM, the StarT-X kernel library (seed 002 §6.1): a thin veneer over the NIU's three
// mechanisms, one per node, used from host processes. It adds no features in software
// (L196); what it costs the host is what the hardware costs (PIO loads and stores timed by
// the PCI bus model, driver calls as system calls) plus a few instructions per call and
// per word at the host clock (JamParams, every one an assumption named in the preset).
//
//  Status (§5.1 L166)  read_status() is one PIO read of the status word; JAM remembers its
//        counts and spends them: a send needs no status read while the last one promised
//        transmit space, a receive none while it counted waiting messages.
//  PIO, generalized (§6.1.1 L202, Table 1 rows a/b)  send(): one message of 2..22 payload
//        words from any word-aligned buffer, header and payload stored with 8-byte std's to
//        consecutive addresses of the transmit page (the bridge merges them into bursts,
//        L164), a final 4-byte st for an odd word. receive(): ldd of the two header words,
//        then ldd's (and a final ld) of the payload into the buffer.
//  PIO, 64-byte (Table 1 row c)  send64()/receive64(): a whole 16-word message between a
//        64-byte-aligned buffer and the queue with one stda / one ldda.
//  VI (§5.2)  vi_compose(): writes one message into the caller's pinned VI region with
//        cached stores (no PIO); vi_transmit(): a driver call that has the TX DMA stream a
//        batch of such messages into the high-priority queue. vi_arm_receive(): a driver call arming the RX
//        DMA with a zeroed buffer; vi_peek()/vi_consume() read messages where the DMA put
//        them (cached memory, no PIO) and zero them again.
//  RDMA (§5.3)  rdma_headers() stores the two header registers (user-level PIO);
//        rdma_transmit() and rdma_open_window() are driver calls; rdma_wait_window() and
//        wait_tx_dma() wait for completion and see it with one status read. The exclusive-
//        access protocol is not here but a separate step above (transport / JAM RPC), so
//        users include or exclude its cost (§6.1.2 L226 excludes it).
//
// Polling (digest A-S6). Waiting for a message or for transmit space is a loop of status
// reads, each a real PIO read on the bus, as JAM polls. A poller that has seen nothing for
// JamParams::spin_limit waits for the NIU instead (the model's way to let idle runs end;
// see the preset's jam.poll_spin_us); waiting for DMA completion or for VI messages in
// host memory blocks until the NIU changes and then pays the one read that observes it.
#include <array>
#include <functional>
#include <cstdint>
#include <span>

#include "niclab/bus/pci.hpp"
#include "niclab/host/process.hpp"
#include "niclab/sim/activity.hpp"
#include "niclab/sim/time.hpp"
#include "niclab/systems/startx/jam_word.hpp"
#include "niclab/systems/startx/message.hpp"
#include "niclab/systems/startx/niu.hpp"

namespace niclab::startx {

// Host-software costs of JAM: each an assumption (the preset's jam.* entries say why).
struct JamParams {
    Time cycle = Time::ps(6024);     // host CPU clock period (host.clock_hz: 166 MHz)
    uint32_t call_cycles = 20;       // a primitive's call, return and header composition
    uint32_t word_cycles = 1;        // per 8 bytes moved between a cached buffer and registers
    uint32_t poll_cycles = 4;        // loop and test around one status read or memory poll
    Time spin_limit = Time::us(100); // polling without progress this long blocks on the NIU
    Time driver_work = Time::us(5);  // kernel work of one driver call beyond the NULL trap
    uint32_t max_nodes = kMaxJamNodes;

    // DriverError naming the first bad field.
    void validate() const;
};

// What a receive found: the hardware header, JAM's word and where the payload is.
struct JamMessage {
    Header header;
    JamWord word;
    uint32_t payload_words = 0;
    uint64_t payload_addr = 0;  // host memory holding the payload words
};

class Jam {
public:
    // `niu` is mapped on `bus` at `niu_base`; `memory` is the host memory the bus reaches.
    Jam(Niu& niu, bus::PciBus& bus, uint64_t niu_base, JamParams params = {});
    Jam(const Jam&) = delete;
    Jam& operator=(const Jam&) = delete;

    uint32_t node() const { return niu_.params().node_id; }
    Niu& niu() { return niu_; }
    bus::PciBus& bus() { return bus_; }
    host::HostMemory& memory() { return bus_.memory(); }
    const JamParams& params() const { return params_; }
    // The CPU time of `n` host cycles; charge(ctx, n) spends it.
    Time cycles(uint64_t n) const { return params_.cycle * int64_t(n); }
    void charge(host::ProcessContext& ctx, uint64_t n) const;

    // Header word 0 of a message to `dst` (MessageFormatError for a bad length; the
    // up-route is the fixed one, FIFO on its path, unless `random_up`).
    uint32_t header(uint32_t dst, Priority p, uint32_t payload_words, bool random_up = false) const;

    // --- status word (002 §5.1 L166) ---
    // One PIO read; the counts it returns become what JAM knows.
    const Status& read_status(host::ProcessContext& ctx);
    const Status& last_status() const { return status_; }
    uint32_t known_rx(Priority p) const { return rx_known_[uint32_t(p)]; }
    uint32_t known_tx_space(Priority p) const { return tx_known_[uint32_t(p)]; }
    // Non-blocking: is a message known to wait in `p`'s queue? Reads the status word only
    // when the last one's count is used up.
    bool rx_ready(host::ProcessContext& ctx, Priority p);
    // Non-blocking: may one more message be written to `p`'s transmit queue?
    bool tx_ready(host::ProcessContext& ctx, Priority p);
    // Polls (status reads) until `ready()` holds, `ready` testing what JAM knows (the
    // counts above); `possible()` tests the NIU's true state and tells a blocked poller
    // when to resume. For library layers that wait for more than one thing at once.
    template <typename Ready, typename Possible>
    void poll_until(host::ProcessContext& ctx, Ready ready, Possible possible);
    void wait_rx(host::ProcessContext& ctx, Priority p);
    void wait_tx_space(host::ProcessContext& ctx, Priority p);

    // --- PIO, generalized primitives (ldd/std) ---
    // One message of `payload_words` (2..22) words from the word-aligned buffer at `buf`.
    // Needs transmit space: polls for it when none is known.
    void send(host::ProcessContext& ctx, uint32_t dst, Priority p, uint32_t word1, uint64_t buf,
              uint32_t payload_words, bool random_up = false);
    // The next message of `p`'s queue into `buf` (room for 88 bytes); false when none is
    // known to wait and one status read finds none.
    bool try_receive(host::ProcessContext& ctx, Priority p, uint64_t buf, JamMessage& out);
    // Polls until a message arrives, then receives it.
    JamMessage receive(host::ProcessContext& ctx, Priority p, uint64_t buf);
    // Where a message lands, chosen by its sender once the header words are read (a
    // library with a buffer per peer).
    using Landing = std::function<uint64_t(uint32_t sender)>;
    JamMessage receive(host::ProcessContext& ctx, Priority p, const Landing& landing);

    // --- PIO, 64-byte primitives (ldda/stda) ---
    // Writes header words 0 and 1 into the 64-byte message buffer `msg` (two cached
    // stores); the 14 payload words are the caller's.
    void format64(host::ProcessContext& ctx, uint64_t msg, uint32_t dst, Priority p, uint32_t word1,
                  bool random_up = false);
    // One stda of the 16-word message at `msg` (64-byte aligned) into `p`'s queue.
    void send64(host::ProcessContext& ctx, Priority p, uint64_t msg);
    // One ldda of a 16-word message into `msg`; false when none waits (as try_receive).
    // The message at the head must be a 16-word one (MessageFormatError otherwise: an
    // ldda of a shorter one would read into the next).
    bool try_receive64(host::ProcessContext& ctx, Priority p, uint64_t msg, JamMessage& out);
    JamMessage receive64(host::ProcessContext& ctx, Priority p, uint64_t msg);
    JamMessage receive64(host::ProcessContext& ctx, Priority p, const Landing& landing);

    // --- VI transmit (host memory) ---
    // Writes one high-priority message to `dst` of `payload_words` (2..22) words from the
    // word-aligned buffer `buf` at `at` in the VI region (cached stores: call_cycles plus
    // word_cycles per 8 bytes, no bus); returns its bytes. The batch goes with vi_transmit.
    uint32_t vi_compose(host::ProcessContext& ctx, uint64_t at, uint32_t dst, uint32_t word1, uint64_t buf,
                        uint32_t payload_words);

    // --- driver calls (system calls: NULL trap + driver_work + the register stores) ---
    void vi_transmit(host::ProcessContext& ctx, uint64_t addr, uint64_t bytes);
    // Zeroes [base, base + size) (a memset at the host copy rate) and arms the RX DMA.
    void vi_arm_receive(host::ProcessContext& ctx, uint64_t base, uint64_t size);
    void rdma_transmit(host::ProcessContext& ctx, uint64_t addr, uint64_t bytes);
    void rdma_open_window(host::ProcessContext& ctx, uint64_t base, uint64_t size, uint32_t sender);

    // --- VI receive (host memory) ---
    // The next message the RX DMA has written, if its header word is there (one cached
    // poll); re-arms the engine (driver call) when it stopped at the buffer's end.
    bool vi_peek(host::ProcessContext& ctx, JamMessage& out);
    // Blocks until vi_peek finds a message.
    JamMessage vi_wait(host::ProcessContext& ctx);
    // Done with the message vi_peek returned: zero its words (so the buffer can be
    // reused) and move on.
    void vi_consume(host::ProcessContext& ctx);
    bool vi_armed() const { return vi_.size != 0; }

    // --- RDMA ---
    // Stores the two RDMA header registers for a stream to `dst` (JAM word `word1`).
    void rdma_headers(host::ProcessContext& ctx, uint32_t dst, uint32_t word1);
    // Until the open window has filled; observed with one status read.
    void rdma_wait_window(host::ProcessContext& ctx);
    // Until the TX DMA is idle (the VI batch or RDMA stream has left host memory).
    void wait_tx_dma(host::ProcessContext& ctx);

    // Host memory for library buffers (send and receive buffers, the VI region): a bump
    // allocator over the node's physical memory above kHeapBase, `align` a power of two.
    static constexpr uint64_t kHeapBase = 0x4000'0000;
    uint64_t allocate(uint64_t bytes, uint64_t align = 64);

    struct Counters {
        uint64_t status_reads = 0;
        uint64_t messages_sent = 0;
        uint64_t messages_received = 0;
        uint64_t driver_calls = 0;
        uint64_t blocked_polls = 0;  // times a poller gave up spinning and waited on the NIU
    };
    const Counters& counters() const { return counters_; }

private:
    uint64_t reg(Reg r) const { return base_ + niu_.reg_offset(r); }
    void driver_call(host::ProcessContext& ctx);
    void store_control(host::ProcessContext& ctx, ControlWord w, uint32_t value);
    void start_tx_dma(host::ProcessContext& ctx, uint64_t addr, ControlWord length_word, uint64_t bytes);
    void check_node(uint32_t dst) const;
    JamMessage read_message(host::ProcessContext& ctx, Priority p, const Landing& landing);

    Niu& niu_;
    bus::PciBus& bus_;
    uint64_t base_;
    JamParams params_;
    Status status_;
    std::array<uint32_t, kPriorities> rx_known_{};
    std::array<uint32_t, kPriorities> tx_known_{};
    struct ViRx {
        uint64_t base = 0, size = 0, cursor = 0;
        uint32_t peeked_words = 0;  // words of the message vi_peek returned, 0 = none
    } vi_;
    Counters counters_;
    uint64_t heap_ = kHeapBase;
};

template <typename Ready, typename Possible>
void Jam::poll_until(host::ProcessContext& ctx, Ready ready, Possible possible) {
    Time idle_since = ctx.now();
    while (!ready()) {
        if (ctx.now() - idle_since >= params_.spin_limit) {
            ++counters_.blocked_polls;
            ctx.wait_for(niu_.activity(), possible);
            idle_since = ctx.now();
        }
        const Time poll = ctx.now();
        charge(ctx, params_.poll_cycles);
        read_status(ctx);
        // A poll that found nothing was waiting, though its PIO read took the bus: a
        // latency breakdown must not see the spin as the work that held the message up.
        if (!ready())
            if (sim::ActivityLog* log = niu_.kernel().activity()) log->record(sim::Activity::HostPolling, node(), poll, ctx.now());
    }
}

}  // namespace niclab::startx
