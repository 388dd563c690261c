#pragma once
// The Portals 3.3 library of one network interface: the portal table, match lists,
// memory descriptors and event queues, and the semantics of put, get, reply and ack
// (SAND2006-0420 §2 and §3). Pure logic, like the platform-independent "lib" layer of
// Sandia's reference implementation that generic-mode SeaStar Portals runs in the
// host kernel (seed 001 §3.1, §3.3): it never moves bytes or spends time itself. A
// network abstraction layer (nal.hpp; the SeaStar NAL in systems/seastar) feeds it incoming headers
// and completions and carries out what it returns; `now` only stamps events.
//
// Life of a put, initiator side:  put() -> Send (SEND_START posted) ... NAL transmits
//   ... send_done(op) (SEND_END) ... if acknowledged: parse(ACK header) (ACK).
// Target side: parse(PUT header) -> Receive{deposit regions} (PUT_START) ... NAL
//   deposits ... receive_done(op) (PUT_END, UNLINK) -> optional Send (the ACK).
// A get: get() -> Send (the request); target parse(GET) -> Receive{reply} (GET_START),
//   send_done(reply op) (GET_END); initiator parse(REPLY) -> Receive{deposit}
//   (REPLY_START), receive_done(op) (REPLY_END).
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <vector>

#include <boost/container/small_vector.hpp>

#include "niclab/fw/portals_fw.h"
#include "niclab/host/condition.hpp"
#include "niclab/msg/portals/types.hpp"

namespace niclab::portals {

struct Region {
    uint64_t addr = 0;    // host physical address
    uint64_t length = 0;
    bool operator==(const Region&) const = default;
};
// A message's regions of host memory: one for a contiguous MD, one per iovec piece it
// spans otherwise. Two kept inline, so a message's Send and Receive allocate nothing for
// them (a std::vector allocated one, then its copies, for every message).
using Regions = boost::container::small_vector<Region, 2>;

// A message for the NAL to transmit: the header, then `payload` (the regions in order).
struct Send {
    ptl_hdr hdr{};
    ptl_nid_t dst = 0;
    Regions payload;
    uint64_t length = 0;  // payload bytes (sum of the regions)
    uint64_t op = 0;      // give it back to send_done()
};

// What to do with an incoming message's payload.
struct Receive {
    enum class Action : uint8_t {
        deposit,  // write the first `mlength` payload bytes to `regions`, discard the rest, then receive_done(op)
        discard,  // nothing wanted (no match, a get request, an ack): discard the payload
    };
    Action action = Action::discard;
    Regions regions;
    uint64_t mlength = 0;
    uint64_t op = 0;
    std::optional<Send> reply;          // a get request: transmit this reply now
    uint32_t entries_examined = 0;      // match entries looked at (the NAL charges time for them)
};

struct Limits {
    uint32_t pt_entries = 64;      // portal table size (PtlNIInit's max_pt_index + 1)
    uint32_t max_mes = 4096;
    uint32_t max_mds = 4096;
    uint32_t max_eqs = 256;
};

// PtlNIStatus registers (§3.5.4).
struct NiStatus {
    uint64_t drop_count = 0;       // PTL_SR_DROP_COUNT: messages that matched nothing
    uint64_t messages_in = 0;
    uint64_t messages_out = 0;
    uint64_t stale_count = 0;      // replies/acks whose operation or MD is gone (or inactive, or too small): discarded
    uint64_t unknown_ops = 0;      // send_done/receive_done of an op id the library does not know: ignored
};

class Library {
public:
    Library(ptl_process_id_t self, ptl_uid_t uid = 0, Limits limits = {});
    ~Library();
    Library(const Library&) = delete;
    Library& operator=(const Library&) = delete;

    ptl_process_id_t id() const { return self_; }             // PtlGetId
    ptl_uid_t uid() const { return uid_; }                     // PtlGetUid
    const Limits& limits() const { return limits_; }
    const NiStatus& status() const { return status_; }         // PtlNIStatus

    // ---- Event queues (§3.11). Errors throw PortalsError. ----
    ptl_handle_eq_t eq_alloc(ptl_size_t count);                // PtlEQAlloc
    void eq_free(ptl_handle_eq_t eq);                          // PtlEQFree
    // PtlEQGet: PTL_OK (event filled in), PTL_EQ_EMPTY, or PTL_EQ_DROPPED (event filled
    // in, and older events were overwritten because the queue was full).
    ptl_err_t eq_get(ptl_handle_eq_t eq, ptl_event_t& event);
    // Notified whenever an event is posted to `eq` (PtlEQWait blocks on it).
    host::Condition& eq_condition(ptl_handle_eq_t eq);
    size_t eq_pending(ptl_handle_eq_t eq) const;               // events not yet read

    // ---- Match list entries (§3.9). ----
    ptl_handle_me_t me_attach(ptl_pt_index_t pt_index, ptl_process_id_t match_id, ptl_match_bits_t match_bits,
                              ptl_match_bits_t ignore_bits, ptl_unlink_t unlink_op, ptl_ins_pos_t position);
    ptl_handle_me_t me_insert(ptl_handle_me_t base, ptl_process_id_t match_id, ptl_match_bits_t match_bits,
                              ptl_match_bits_t ignore_bits, ptl_unlink_t unlink_op, ptl_ins_pos_t position);
    void me_unlink(ptl_handle_me_t me);                        // also unlinks its MD
    // What me_unlink / md_unlink would throw, without unlinking: a NAL whose NIC also
    // holds the entry asks the NIC between the two (nal.hpp).
    void check_me_unlink(ptl_handle_me_t me) const;
    void check_md_unlink(ptl_handle_md_t md) const;
    // The MEs of a portal table entry, in match order (for tests and inspection).
    std::vector<ptl_handle_me_t> match_list(ptl_pt_index_t pt_index) const;

    // ---- Memory descriptors (§3.10). ----
    ptl_handle_md_t md_attach(ptl_handle_me_t me, const ptl_md_t& md, ptl_unlink_t unlink_op);
    ptl_handle_md_t md_bind(const ptl_md_t& md, ptl_unlink_t unlink_op);
    void md_unlink(ptl_handle_md_t md);                        // PTL_MD_IN_USE while operations are pending
    ptl_md_t md_state(ptl_handle_md_t md) const;               // PtlMDUpdate's old_md: threshold, offset...
    ptl_size_t md_local_offset(ptl_handle_md_t md) const;
    bool md_valid(ptl_handle_md_t md) const;
    bool me_valid(ptl_handle_me_t me) const;

    // ---- Data movement (§3.13), initiator side. `now` stamps the events. ----
    Send put(ptl_handle_md_t md, ptl_ack_req_t ack_req, ptl_process_id_t target, ptl_pt_index_t pt_index,
             ptl_ac_index_t ac_index, ptl_match_bits_t match_bits, ptl_size_t remote_offset, ptl_hdr_data_t hdr_data,
             Time now);
    Send get(ptl_handle_md_t md, ptl_process_id_t target, ptl_pt_index_t pt_index, ptl_ac_index_t ac_index,
             ptl_match_bits_t match_bits, ptl_size_t remote_offset, Time now);

    // ---- From the NAL ----
    // A message's header arrived from node `src_nid` (the header says the rest).
    Receive parse(const ptl_hdr& hdr, ptl_nid_t src_nid, Time now);
    // Accelerated mode: the firmware matched the put or get in `hdr` to `md`, at
    // `offset` for `mlength` bytes (its own copy of the match list, same rules):
    // record that as parse() would have (events, threshold, offset; a get's reply
    // op, whose Send the firmware already made). entries_examined is 0.
    Receive commit(const ptl_hdr& hdr, ptl_nid_t src_nid, ptl_handle_md_t md, ptl_size_t offset, ptl_size_t mlength,
                   Time now);
    // Accelerated mode: the firmware found no match for `drops` messages.
    void count_drop(uint64_t drops = 1);
    // Accelerated mode: the attached MD whose threshold the last call counted down
    // without the firmware deciding it (a put sent from it, an ack or a reply it took,
    // §3.10.1), so the NAL can tell the firmware's copy; PTL_INVALID_HANDLE if none.
    // Each is given once.
    ptl_handle_md_t take_counted();
    // The transmit of `op` (from put/get/parse's reply/receive_done's ack) finished.
    void send_done(uint64_t op, bool ok, Time now);
    // The deposit of `op` finished; returns the acknowledgement to send, if one is due.
    std::optional<Send> receive_done(uint64_t op, bool ok, Time now);

private:
    struct State;
    ptl_process_id_t self_;
    ptl_uid_t uid_;
    Limits limits_;
    NiStatus status_;
    std::unique_ptr<State> state_;
};

}  // namespace niclab::portals
