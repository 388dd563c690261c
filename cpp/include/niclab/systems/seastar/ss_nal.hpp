#pragma once
// The SeaStar NAL in generic mode (seed 001 §3.3, seed 000 §4): the host kernel's
// driver between the Portals library (msg/portals/library.hpp) and the C Portals
// firmware (firmware/portals, interface in niclab/fw/portals_fw.h); the SeaStar's
// portals::Nal.
//
// It owns the generic process's host structures: the upper pendings and the generic
// event queue, in one kernel region of host memory that host window 0 exposes to the
// firmware; the host-managed TX pending pool; the mailbox. Transmits come from host
// processes (through portals::Ni) and from its own interrupt handler (get replies,
// acks). The interrupt handler processes every new event of the generic EQ each time
// it runs (seed 000 §4.1): it matches new headers in the library and answers with
// receive / release commands, so each generic receive costs two interrupts, or one
// for a very small message (seed 000 §5.2).
//
// Host costs: programmed I/O across the SeaStar's HyperTransport link (the bus's
// pio_read / pio_write; a command's stores reach the NIC when the bus completes them),
// the kernel trap, and the library's own work (HostPortalsCosts); all from the preset.
#include <cstdint>
#include <array>
#include <deque>
#include <map>
#include <optional>
#include <vector>

#include "niclab/fw/portals_fw.h"
#include "niclab/host/condition.hpp"
#include "niclab/host/host_cpu.hpp"
#include "niclab/host/host_memory.hpp"
#include "niclab/msg/portals/library.hpp"
#include "niclab/msg/portals/nal.hpp"
#include "niclab/nic/mailbox_producer.hpp"
#include "niclab/sim/ring_queue.hpp"
#include "niclab/systems/seastar/pending_table.hpp"
#include "niclab/systems/seastar/seastar_nic.hpp"

namespace niclab::seastar {

// Host-side software costs of generic-mode Portals (preset "portals.*").
struct HostPortalsCosts {
    Time api_call = Time::ns(200);      // library work of one API call, after the trap
    Time match_entry = Time::ns(20);    // per match entry examined
    Time event = Time::ns(100);         // handler work per firmware event (read the slot and the header)
    Time portals_event = Time::ns(50);  // posting one Portals event to a user EQ
};

// Where the driver keeps its kernel structures in host memory (below the 2 GB the
// DMA engines reach). User buffers must not overlap it.
inline constexpr uint64_t kKernelRegionBase = 0x7F000000;

struct NalCounters {
    uint64_t interrupts = 0;
    uint64_t events = 0;          // firmware events handled
    uint64_t transmits = 0;
    uint64_t inline_sends = 0;    // very small messages sent with the payload in the header
    uint64_t commands = 0;        // mailbox commands posted
    uint64_t tx_pool_waits = 0;   // a transmit found the TX pool empty
};

class SsNal final : public portals::Nal {
public:
    // Reads the firmware's NIC control block, lays out the kernel region, opens host
    // window 0 over it and posts PTL_CMD_INIT (taking effect when the simulation runs).
    // Throws niclab::Error if the loaded firmware is not the Portals firmware.
    // `nodes`: how many nodes the network has (0: unknown), so a message to a node that
    // does not exist is refused with PTL_PROCESS_INVALID instead of reaching the network.
    SsNal(SeaStar& seastar, host::HostCpu& cpu, host::HostMemory& memory, HostPortalsCosts costs = {},
          uint32_t nodes = 0);
    ~SsNal() override;
    SsNal(const SsNal&) = delete;
    SsNal& operator=(const SsNal&) = delete;

    // portals::Nal
    portals::ptl_nid_t nid() const override { return seastar_.node_id(); }
    void attach(portals::Library& lib) override;
    void detach(portals::Library& lib) override;
    void check_live() const override;
    void check_target(portals::ptl_nid_t nid, const char* call) const override;
    // Waits for a TX pending.
    void transmit(host::ProcessContext& ctx, portals::Send s) override;
    Time api_call_cost() const override { return costs_.api_call; }

    // Process initialization of an accelerated process (seed 000 §4.1: it cannot be
    // offloaded, so the kernel does it): open host window kAccelWindow over its region
    // (upper pendings at `upper_base`, its EQ `eq_offset` bytes in) and post
    // PTL_CMD_ACCEL_INIT naming its pid. Firmware with PTL_FW_FEAT_ACCEL only.
    static constexpr unsigned kAccelWindow = 1;
    void accel_init(uint32_t pid, uint64_t upper_base, uint32_t region_bytes, uint32_t eq_offset, uint32_t eq_entries);

    // The firmware was reloaded or the system is going away: stop taking the NIC's
    // interrupts; every later call throws (interfaces of the old firmware are dead).
    void retire();
    bool retired() const { return retired_; }

    uint32_t features() const { return features_; }
    bool has(uint32_t feature) const { return (features_ & feature) != 0; }
    const NalCounters& counters() const { return counters_; }
    const ptl_niccb& niccb();            // read now (debug back door, no cost)
    uint32_t tx_pendings() const { return n_tx_; }
    uint32_t rx_pendings() const { return n_rx_; }
    SeaStar& seastar() { return seastar_; }
    nic::EmbeddedNic& nic() { return nic_; }
    host::HostMemory& memory() { return memory_; }
    host::HostCpu& cpu() { return cpu_; }
    const HostPortalsCosts& costs() const { return costs_; }
    const bus::HyperTransportParams& pio() const { return bus_.params(); }

private:
    using Words = std::array<uint32_t, 8>;
    struct Command {
        Time at;   // when the driver's stores reach the NIC
        Words words;
    };

    void check_init_result(host::InterruptContext& ictx);
    void on_interrupt(host::InterruptContext& ictx);
    void handle_event(host::InterruptContext& ictx, const uint32_t (&ev)[4]);
    void new_message(host::InterruptContext& ictx, uint32_t pending, uint32_t src, bool complete);
    void finish_receive(host::InterruptContext& ictx, portals::Library* lib, uint64_t op, bool ok);
    void release(host::InterruptContext& ictx, uint32_t pending);
    portals::Library* library_for(uint16_t pid) const;

    // Commands that move a message: SEGs (for more than one region) and the TX or RX.
    uint32_t commands_for(size_t regions) const { return regions > 1 ? uint32_t(regions) + 1 : 1; }
    Time transmit_cost(const portals::Send& s) const;
    // Transmit with a TX pending in hand; `at` is when the driver's stores happen.
    void start_transmit(uint32_t pending, portals::Send& s, Time at);
    void transmit_from_interrupt(host::InterruptContext& ictx, portals::Send s);
    void post_regions(uint32_t pending, const portals::Regions& regions, Time at);
    void post(const Words& w, Time at);
    void flush_commands();
    void schedule_flush(Time at);
    Time post_cost() const;
    static Time stamp(const host::InterruptContext& ictx) { return ictx.now() + ictx.charged(); }

    uint64_t upper_addr(uint32_t pending) const { return upper_base_ + uint64_t(pending) * PTL_UPPER_BYTES; }

    SeaStar& seastar_;
    nic::EmbeddedNic& nic_;
    host::HostCpu& cpu_;
    host::HostMemory& memory_;
    bus::HyperTransport& bus_;  // the node's HyperTransport link: PIO costs and when stores land
    HostPortalsCosts costs_;
    uint32_t niccb_addr_ = 0, mailbox_ = 0;
    ptl_niccb niccb_{};
    uint32_t nodes_ = 0;
    uint32_t features_ = 0, n_tx_ = 0, n_rx_ = 0;
    uint64_t upper_base_ = 0, eq_base_ = 0;
    uint32_t eq_entries_ = 0, eq_head_ = 0;

    std::optional<nic::MailboxProducer> commands_;  // once the mailbox is found
    sim::RingQueue<Command> outbox_;    // commands waiting for their time or for room
    bool flush_scheduled_ = false;
    bool init_pending_ = true;

    std::vector<uint32_t> tx_free_;     // host-managed TX pool
    struct InFlight {
        portals::Library* lib = nullptr;
        uint64_t op = 0;                // 0: nothing to tell the library (a discard)
    };
    PendingTable<InFlight> in_flight_;
    std::deque<portals::Send> backlog_;          // handler transmits waiting for a TX pending
    host::Condition tx_pool_;
    std::map<uint32_t, portals::Library*> libraries_;  // by pid
    NalCounters counters_;
    nic::ControlBlock::HandlerId irq_handler_ = 0;
    bool retired_ = false;
};

}  // namespace niclab::seastar
