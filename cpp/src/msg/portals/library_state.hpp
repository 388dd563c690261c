#pragma once
// The inside of a Portals Library (library.hpp): its object tables, the operations in
// flight and the initiator operations waiting for an ack or a reply. Shared by
// library.cpp (the objects: event queues, match entries, memory descriptors) and
// library_ops.cpp (data movement: put, get, parse and the completions).
#include <cstdint>
#include <optional>

#include "event_queue.hpp"
#include "handle_table.hpp"
#include "match_list.hpp"
#include "memory_descriptor.hpp"
#include "niclab/msg/portals/library.hpp"
#include "niclab/sim/recycling_map.hpp"

namespace niclab::portals {

// An operation in flight, keyed by its op id (given to the NAL in Send/Receive).
struct Operation {
    enum class Kind : uint8_t {
        put_send,    // initiator: the put's transmit (SEND_END when done)
        get_send,    // initiator: the get request's transmit (no events of its own)
        reply_send,  // target: the reply to a get (GET_END when done)
        ack_send,    // target: an acknowledgement (nothing to tell)
        put_recv,    // target: the put's deposit (PUT_END when done, then the ack)
        reply_recv,  // initiator: the reply's deposit (REPLY_END when done)
    };
    Kind kind = Kind::ack_send;
    ptl_handle_md_t md = PTL_INVALID_HANDLE;
    ptl_event_t event;          // the operation's event fields (type set when posted)
    uint32_t cookie = 0;        // get_send: its entry in `awaiting`
    std::optional<Send> ack;    // put_recv: the acknowledgement to send afterwards
};

// An initiator's put or get waiting for its ack or reply, keyed by the md_cookie the
// request carried (ptl_hdr.md_cookie). Dropped when its MD is unlinked, so a late ack
// or reply finds nothing and is counted in NiStatus::stale_count.
struct Awaiting {
    uint8_t type = 0;  // PTL_MSG_ACK or PTL_MSG_REPLY: what is expected
    ptl_handle_md_t md = PTL_INVALID_HANDLE;
    ptl_size_t local_offset = 0;  // reply: where in the MD it goes
    ptl_event_t event;            // pt_index, match_bits, rlength, hdr_data of the request
};

struct Library::State {
    State(ptl_process_id_t self, ptl_uid_t uid, const Limits& limits, NiStatus& status);

    ptl_process_id_t self;
    ptl_uid_t uid;
    NiStatus& status;
    HandleTable<EventQueue> eqs;
    HandleTable<MatchEntry> mes;
    HandleTable<MemoryDescriptor> mds;
    PortalTable portals;
    // Each message adds an operation (and an ack-requesting put or a get an awaiting
    // entry) and its completion erases it: maps that reuse their nodes, so that costs no
    // allocation once they have held their most.
    sim::RecyclingMap<uint64_t, Operation> ops;
    uint64_t next_op = 1;
    sim::RecyclingMap<uint32_t, Awaiting> awaiting;
    uint32_t next_cookie = 1;
    ptl_handle_md_t counted = PTL_INVALID_HANDLE;  // Library::take_counted

    // Look-ups for the API: a stale or invalid handle throws PortalsError naming the
    // call and the handle.
    EventQueue& eq(ptl_handle_eq_t handle, const char* call);
    MatchEntry& me(ptl_handle_me_t handle, const char* call);
    MemoryDescriptor& md(ptl_handle_md_t handle, const char* call);
    MemoryDescriptor& active_md(ptl_handle_md_t handle, const char* call);  // PTL_MD_INVALID when inactive
    void check_eq_handle(ptl_handle_eq_t handle, const char* call);  // PTL_EQ_NONE or valid

    // An operation the NIC did not match counts against the MD's threshold (§3.10.1);
    // an attached MD with a finite threshold is remembered for take_counted.
    void count_local(ptl_handle_md_t mdh, MemoryDescriptor& md);

    uint64_t add_op(Operation op);
    uint32_t add_awaiting(Awaiting a);

    // Posts `event` as `type` to the MD's event queue, unless it has none (or it was
    // freed) or the MD disables that kind of event (§3.10.1: PTL_MD_EVENT_START_DISABLE
    // and PTL_MD_EVENT_END_DISABLE suppress start and end events; ACK and UNLINK are
    // neither and always posted).
    void post(ptl_handle_md_t mdh, const MemoryDescriptor& md, ptl_event_kind_t type, ptl_event_t event, Time now);
    // An operation on the MD finished: release it, post `type` (nullopt: the operation
    // has no event of its own), then unlink the MD if that is due, posting
    // PTL_EVENT_UNLINK with the same fields.
    void complete(ptl_handle_md_t mdh, std::optional<ptl_event_kind_t> type, ptl_event_t event, bool ok, Time now);
    // Removes the MD, its ME when that was attached with PTL_UNLINK, and the ack/reply
    // entries waiting on it. No event (the callers post PTL_EVENT_UNLINK when due).
    void unlink_md(ptl_handle_md_t mdh);

    Receive parse_request(const ptl_hdr& hdr, ptl_nid_t src_nid, Time now);
    Receive accept_request(const ptl_hdr& hdr, ptl_nid_t src_nid, ptl_handle_md_t mdh, MemoryDescriptor& md,
                           Placement place, Time now);
    Receive parse_reply(const ptl_hdr& hdr, ptl_nid_t src_nid, Time now);
    Receive parse_ack(const ptl_hdr& hdr, ptl_nid_t src_nid, Time now);
};

inline ptl_match_bits_t hdr_match_bits(const ptl_hdr& h) { return (uint64_t(h.match_bits_hi) << 32) | h.match_bits_lo; }
inline ptl_hdr_data_t hdr_data(const ptl_hdr& h) { return (uint64_t(h.hdr_data_hi) << 32) | h.hdr_data_lo; }
inline void set_match_bits(ptl_hdr& h, ptl_match_bits_t bits) {
    h.match_bits_lo = uint32_t(bits);
    h.match_bits_hi = uint32_t(bits >> 32);
}
inline void set_hdr_data(ptl_hdr& h, ptl_hdr_data_t data) {
    h.hdr_data_lo = uint32_t(data);
    h.hdr_data_hi = uint32_t(data >> 32);
}

}  // namespace niclab::portals
