#pragma once
// The SeaStar NAL of an accelerated process (seed 000 §4.1, §4.3.2; seed 001 §3.3): the
// user-level Portals driver of one host process whose commands go straight to its own
// firmware mailbox with programmed I/O, without system calls. Only its initialization
// goes through the kernel (SsNal::accel_init: window 1 over its structures,
// PTL_CMD_ACCEL_INIT on the generic mailbox).
//
// Its match entries and MDs are mirrored into the firmware as the library creates and
// unlinks them (PTL_CMD_ME_ATTACH ...), so the firmware matches incoming puts and gets
// itself, deposits puts and sends get replies without asking the host. Events land in
// its own event queue in host memory and never raise an interrupt: the library polls
// the queue whenever the process enters it (Nal::enter), and PtlEQWait sleeps until a
// firmware store lands in the queue (HostBridge::watch_stores; a polling process
// notices a store to the line it spins on at the cost of one read, `poll`). For each
// event the library replays the firmware's decision (Library::commit) so its state and
// Portals events are what generic mode would give. Replies and acks addressed to the
// process need no matching: the firmware announces them and the library answers with
// PTL_CMD_RX, still without interrupts. Buffers must be physically contiguous (seed 001
// §3.3): a PTL_MD_IOVEC descriptor is refused with PTL_MD_ILLEGAL.
//
// The two copies of the match list stay one: an unlink is a round trip in which the
// firmware decides (it may have matched the MD since the library last looked:
// PTL_MD_IN_USE then), and an operation the library counts on an attached MD without
// the firmware (a put sent from it, an ack or reply it takes) is passed on
// (PTL_CMD_MD_COUNT), so both thresholds run down alike. Drops hold no pending: the
// firmware keeps at most PTL_ACCEL_DROP_EVENTS of them unread in the EQ and counts
// the rest into the next, so a process that stops entering its library cannot have
// its EQ overrun.
#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "niclab/host/condition.hpp"
#include "niclab/host/host_cpu.hpp"
#include "niclab/host/host_memory.hpp"
#include "niclab/msg/portals/nal.hpp"
#include "niclab/nic/mailbox_producer.hpp"
#include "niclab/systems/seastar/portals_wire.hpp"
#include "niclab/systems/seastar/ss_nal.hpp"

namespace niclab::seastar {

// Where the accelerated process's structures are in host memory: below the kernel's.
inline constexpr uint64_t kAccelRegionBase = 0x7E000000;

struct AccelCounters {
    uint64_t events = 0;        // firmware events taken from its EQ
    uint64_t matched = 0;       // puts and gets the firmware matched (PTL_EV_MATCHED*)
    uint64_t dropped = 0;       // ... that matched nothing (PTL_EV_DROPPED may carry several)
    uint64_t unlinks_refused = 0; // unlinks the firmware refused: matched since the library looked
    uint64_t announced = 0;     // replies and acks announced for the library to place
    uint64_t commands = 0;      // commands posted to its mailbox
    uint64_t transmits = 0;
    uint64_t polls = 0;         // times the library looked at its EQ
    uint64_t syscalls = 0;      // always 0: nothing on its path traps
};

class AccelNal final : public portals::Nal {
public:
    // Sets up the accelerated process `pid` through the kernel driver. Throws
    // niclab::Error if the firmware was not built with an accelerated process.
    AccelNal(SsNal& kernel, portals::ptl_pid_t pid);
    ~AccelNal() override;
    AccelNal(const AccelNal&) = delete;
    AccelNal& operator=(const AccelNal&) = delete;

    // portals::Nal
    portals::ptl_nid_t nid() const override { return kernel_.nid(); }
    void attach(portals::Library& lib) override;
    void detach(portals::Library& lib) override;
    void check_live() const override;
    void check_target(portals::ptl_nid_t nid, const char* call) const override { kernel_.check_target(nid, call); }
    void transmit(host::ProcessContext& ctx, portals::Send s) override;
    Time api_call_cost() const override { return kernel_.costs().api_call; }
    void enter(host::ProcessContext& ctx) override;
    void wait_event(host::ProcessContext& ctx, portals::Library& lib, portals::ptl_handle_eq_t eq) override;
    void check_md(const portals::ptl_md_t& md, const char* call) const override;
    void me_attached(host::ProcessContext& ctx, portals::ptl_handle_me_t me, const MeSpec& spec) override;
    void md_attached(host::ProcessContext& ctx, portals::ptl_handle_me_t me, portals::ptl_handle_md_t md,
                     const portals::ptl_md_t& d, portals::ptl_unlink_t unlink_op) override;
    void me_unlink(host::ProcessContext& ctx, portals::ptl_handle_me_t me) override;
    void md_unlink(host::ProcessContext& ctx, portals::ptl_handle_md_t md) override;

    // The Limits an accelerated library may have: its tables must fit the firmware's.
    portals::Limits limits() const;
    portals::ptl_pid_t pid() const { return pid_; }
    const AccelCounters& counters() const { return counters_; }
    // The firmware's last matching decision the library took in (for inspection).
    struct Decision {
        portals::ptl_handle_md_t md = portals::PTL_INVALID_HANDLE;
        uint32_t offset = 0, mlength = 0;
    };
    const Decision& last_match() const { return last_match_; }
    // Take every event in the EQ now (PtlEQGet/PtlEQWait/poll do this on entry).
    void poll(host::ProcessContext& ctx);
    // Block until the firmware stores an event in the EQ, then enter the library and
    // take every event: the loop of a process that waits in its library for whatever
    // comes (a caller outside the simulation, such as Python, has one). No interrupt.
    void serve(host::ProcessContext& ctx);

private:
    struct InFlight {
        uint64_t op = 0;    // the library's operation (0: nothing to tell it)
        bool reply = false; // an RX-pool pending the firmware sent a get reply from
    };

    void post(host::ProcessContext& ctx, const MailboxWords& w);
    void handle(host::ProcessContext& ctx, const uint32_t (&ev)[4]);
    void matched(host::ProcessContext& ctx, uint32_t pending, uint32_t md_index, uint32_t offset, uint32_t mlength,
                 bool complete);
    void announced(host::ProcessContext& ctx, uint32_t pending, uint32_t src, bool complete);
    void finish_receive(host::ProcessContext& ctx, uint64_t op, bool ok);
    void release(host::ProcessContext& ctx, uint32_t pending);
    // Post an unlink command for firmware `index` and take events until its answer
    // (PTL_UNLINK_*).
    uint32_t ask_unlink(host::ProcessContext& ctx, uint32_t command, uint32_t index);
    // Pass the library's last count on an attached MD to the firmware (take_counted).
    void tell_counted(host::ProcessContext& ctx);
    void send_now(host::ProcessContext& ctx, uint32_t pending, portals::Send& s);
    bool event_waiting() const;
    // An event to take and nobody taking them (another fiber of the process may be in poll).
    bool work_waiting() const { return !polling_ && event_waiting(); }
    uint64_t upper_addr(uint32_t pending) const { return upper_base_ + uint64_t(pending) * PTL_UPPER_BYTES; }
    uint64_t eq_addr(uint32_t slot) const { return eq_base_ + uint64_t(slot) * PTL_EQ_BYTES; }

    SsNal& kernel_;
    nic::EmbeddedNic& nic_;
    host::HostCpu& cpu_;
    host::HostMemory& memory_;
    portals::ptl_pid_t pid_;
    std::optional<nic::MailboxProducer> commands_;
    uint32_t n_tx_ = 0, n_rx_ = 0, max_mes_ = 0, max_mds_ = 0;
    uint64_t upper_base_ = 0, eq_base_ = 0;
    uint32_t eq_entries_ = 0, eq_head_ = 0;
    portals::Library* lib_ = nullptr;
    std::vector<uint32_t> tx_free_;
    PendingTable<InFlight> in_flight_;
    std::vector<portals::ptl_handle_md_t> md_at_;     // the MD attached at each firmware index
    std::deque<portals::Send> backlog_;               // acks waiting for a TX pending
    host::Condition eq_written_;                      // a firmware store landed in the EQ
    bool polling_ = false;
    std::optional<uint32_t> unlink_answer_;           // PTL_EV_UNLINK_ANSWER's status, until ask_unlink takes it
    AccelCounters counters_;
    Decision last_match_;
};

}  // namespace niclab::seastar
