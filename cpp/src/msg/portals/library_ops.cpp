// Data movement in the Portals library (SAND2006-0420 §2.2, §3.13): put and get at the
// initiator, the match-list walk at the target, replies and acknowledgements, and the
// events each step posts (§3.11.1). Who sees which events:
//   put initiator  SEND_START at put(), SEND_END at send_done(), ACK when the ack
//                  arrives (the target's MD without PTL_MD_ACK_DISABLE, PTL_ACK_REQ).
//   put target     PUT_START at the match, PUT_END at receive_done().
//   get target     GET_START at the match, GET_END when the reply has been sent.
//   get initiator  REPLY_START when the reply arrives, REPLY_END at receive_done().
//                  No SEND events: 3.3 gives them to PtlPut only (§3.13.2 vs §3.13.4;
//                  Sandia's 3.3 reference implementation posts none for PtlGet).
// END events precede the PTL_EVENT_UNLINK of an MD the operation left inactive.
#include <limits>
#include <string>
#include <utility>

#include "library_state.hpp"

namespace niclab::portals {

namespace {

bool is_start(ptl_event_kind_t k) {
    return k == PTL_EVENT_GET_START || k == PTL_EVENT_PUT_START || k == PTL_EVENT_REPLY_START ||
           k == PTL_EVENT_SEND_START;
}

bool is_end(ptl_event_kind_t k) {
    return k == PTL_EVENT_GET_END || k == PTL_EVENT_PUT_END || k == PTL_EVENT_REPLY_END || k == PTL_EVENT_SEND_END;
}

// What put and get share (§3.13): the target and the header fields must fit the wire
// header; then the request's header.
ptl_hdr request_header(const char* op, uint8_t type, ptl_process_id_t self, ptl_uid_t uid, ptl_process_id_t target,
                       ptl_pt_index_t pt_index, ptl_ac_index_t ac_index, ptl_match_bits_t match_bits,
                       ptl_size_t remote_offset, ptl_size_t length) {
    if (target.pid >= PTL_PID_FIRMWARE)  // 0xFFFF addresses the NIC firmware itself (go-back-N control)
        throw PortalsError(PTL_PROCESS_INVALID, std::string(op) + ": target pid " + std::to_string(target.pid) +
                                                    " does not fit the header's 16-bit dst_pid (0xFFFF is the firmware's)");
    if (pt_index > 0xFFFF || ac_index > 0xFFFF || remote_offset > std::numeric_limits<uint32_t>::max())
        throw PortalsError(PTL_FAIL, std::string(op) + ": pt_index " + std::to_string(pt_index) + ", ac_index " + std::to_string(ac_index) + " or remote_offset " +
                                         std::to_string(remote_offset) + " does not fit the wire header");
    ptl_hdr hdr{};
    hdr.type = type;
    hdr.pt_index = uint16_t(pt_index);
    hdr.src_nid = self.nid;
    hdr.src_pid = uint16_t(self.pid);
    hdr.dst_pid = uint16_t(target.pid);
    hdr.length = uint32_t(length);
    set_match_bits(hdr, match_bits);
    hdr.offset = uint32_t(remote_offset);
    hdr.uid = uint16_t(uid);  // fits: the Library checked it
    hdr.ac_index = uint16_t(ac_index);
    return hdr;
}

}  // namespace

uint64_t Library::State::add_op(Operation op) {
    const uint64_t id = next_op++;
    ops.emplace(id, std::move(op));
    return id;
}

uint32_t Library::State::add_awaiting(Awaiting a) {
    // Cookies are 32-bit and never 0; after a wrap, skip any still in use.
    while (next_cookie == 0 || awaiting.count(next_cookie)) ++next_cookie;
    const uint32_t cookie = next_cookie++;
    awaiting.emplace(cookie, std::move(a));
    return cookie;
}

void Library::State::post(ptl_handle_md_t mdh, const MemoryDescriptor& md, ptl_event_kind_t type, ptl_event_t event,
                          Time now) {
    EventQueue* q = eqs.find(md.state().eq_handle);
    if (!q) return;
    if (is_start(type) && (md.options() & PTL_MD_EVENT_START_DISABLE)) return;
    if (is_end(type) && (md.options() & PTL_MD_EVENT_END_DISABLE)) return;
    event.type = type;
    event.md_handle = mdh;
    event.md = md.state();
    event.time = now;
    q->post(std::move(event));
}

void Library::State::complete(ptl_handle_md_t mdh, std::optional<ptl_event_kind_t> type, ptl_event_t event, bool ok,
                              Time now) {
    MemoryDescriptor* md = mds.find(mdh);
    if (!md) return;  // cannot happen: an MD with operations in flight is never unlinked
    md->release();
    const bool unlink = md->unlink_due();
    event.ni_fail_type = ok ? PTL_NI_OK : PTL_NI_FAIL;
    event.unlinked = unlink ? 1 : 0;  // niclab extension; 3.3 itself reports it by PTL_EVENT_UNLINK
    if (type) post(mdh, *md, *type, event, now);
    if (unlink) {
        event.ni_fail_type = PTL_NI_OK;
        post(mdh, *md, PTL_EVENT_UNLINK, event, now);
        unlink_md(mdh);
    }
}

// ---- Initiator ----

MemoryDescriptor& Library::State::active_md(ptl_handle_md_t mdh, const char* call) {
    MemoryDescriptor& m = md(mdh, call);
    if (m.inactive())
        throw PortalsError(PTL_MD_INVALID, std::string(call) + ": md handle " + handle_str(mdh) +
                                               " is inactive (threshold " + std::to_string(m.state().threshold) +
                                               (m.full() ? ", full)" : ")"));
    return m;
}

Send Library::put(ptl_handle_md_t mdh, ptl_ack_req_t ack_req, ptl_process_id_t target, ptl_pt_index_t pt_index,
                  ptl_ac_index_t ac_index, ptl_match_bits_t match_bits, ptl_size_t remote_offset,
                  ptl_hdr_data_t hdr_data, Time now) {
    State& s = *state_;
    MemoryDescriptor& md = s.active_md(mdh, "put");
    const ptl_size_t length = md.length();

    ptl_event_t ev;
    ev.initiator = self_;
    ev.uid = uid_;
    ev.pt_index = pt_index;
    ev.match_bits = match_bits;
    ev.rlength = length;
    ev.mlength = length;
    ev.offset = remote_offset;
    ev.hdr_data = hdr_data;

    Send out;
    out.hdr = request_header("put", PTL_MSG_PUT, self_, uid_, target, pt_index, ac_index, match_bits, remote_offset,
                             length);
    set_hdr_data(out.hdr, hdr_data);
    if (ack_req == PTL_ACK_REQ) {
        out.hdr.flags |= PTL_HDR_ACK_REQ;
        out.hdr.md_cookie = s.add_awaiting(Awaiting{PTL_MSG_ACK, mdh, 0, ev});
    }
    out.dst = target.nid;
    out.payload = md.regions(0, length);
    out.length = length;

    // §3.10.1: sending the put is an operation on the MD (it generates events).
    s.count_local(mdh, md);
    md.hold();
    out.op = s.add_op(Operation{Operation::Kind::put_send, mdh, ev, 0, std::nullopt});
    ++status_.messages_out;
    s.post(mdh, md, PTL_EVENT_SEND_START, ev, now);
    return out;
}

Send Library::get(ptl_handle_md_t mdh, ptl_process_id_t target, ptl_pt_index_t pt_index, ptl_ac_index_t ac_index,
                  ptl_match_bits_t match_bits, ptl_size_t remote_offset, Time now) {
    (void)now;  // a get request posts no event
    State& s = *state_;
    MemoryDescriptor& md = s.active_md(mdh, "get");
    // The reply lands at the MD's local offset; ask for the room from there on (the
    // whole MD when the offset is 0, as it is for an MD used only to initiate).
    const ptl_size_t local_offset = md.local_offset();
    const ptl_size_t length = md.length() - local_offset;

    ptl_event_t ev;
    ev.pt_index = pt_index;
    ev.match_bits = match_bits;
    ev.rlength = length;

    Send out;
    out.hdr = request_header("get", PTL_MSG_GET, self_, uid_, target, pt_index, ac_index, match_bits, remote_offset,
                             length);
    const uint32_t cookie = s.add_awaiting(Awaiting{PTL_MSG_REPLY, mdh, local_offset, ev});
    out.hdr.md_cookie = cookie;
    out.dst = target.nid;
    out.length = 0;

    md.hold();  // until the request is on the wire
    out.op = s.add_op(Operation{Operation::Kind::get_send, mdh, ev, cookie, std::nullopt});
    ++status_.messages_out;
    return out;
}

// ---- Arrivals ----

Receive Library::parse(const ptl_hdr& hdr, ptl_nid_t src_nid, Time now) {
    State& s = *state_;
    ++status_.messages_in;
    switch (hdr.type) {
        case PTL_MSG_PUT:
        case PTL_MSG_GET: return s.parse_request(hdr, src_nid, now);
        case PTL_MSG_REPLY: return s.parse_reply(hdr, src_nid, now);
        case PTL_MSG_ACK: return s.parse_ack(hdr, src_nid, now);
        default: ++status_.drop_count; return {};
    }
}

// §2.2 and figure 2.5: walk the portal's match list in order; the first entry whose
// match criteria are met and whose MD accepts the operation takes it. An entry
// without an MD, or whose MD rejects (operation not enabled, inactive, no room
// without PTL_MD_TRUNCATE), passes the request on to the next entry. At the end of
// the list the request is discarded and counted (PTL_SR_DROP_COUNT, §3.5.4).
Receive Library::State::parse_request(const ptl_hdr& hdr, ptl_nid_t src_nid, Time now) {
    Receive r;
    const ptl_process_id_t source{src_nid, hdr.src_pid};
    const ptl_match_bits_t bits = hdr_match_bits(hdr);
    const bool is_put = hdr.type == PTL_MSG_PUT;
    if (!portals.valid(hdr.pt_index)) {
        ++status.drop_count;
        return r;
    }
    ptl_handle_md_t mdh = PTL_INVALID_HANDLE;
    MemoryDescriptor* md = nullptr;
    Placement place;
    for (uint32_t meh : portals.list(hdr.pt_index)) {
        ++r.entries_examined;
        const MatchEntry& e = *mes.find(meh);
        if (!me_matches(e, source, bits)) continue;
        MemoryDescriptor* d = mds.find(e.md);
        if (!d) continue;
        auto p = d->accept(is_put ? PTL_MD_OP_PUT : PTL_MD_OP_GET, hdr.length, hdr.offset);
        if (!p) continue;
        mdh = e.md;
        md = d;
        place = *p;
        break;
    }
    if (!md) {
        ++status.drop_count;
        return r;
    }
    const uint32_t examined = r.entries_examined;
    r = accept_request(hdr, src_nid, mdh, *md, place, now);
    r.entries_examined = examined;
    return r;
}

// The match is made (by the walk above or, in accelerated mode, by the firmware):
// the MD takes the request.
Receive Library::State::accept_request(const ptl_hdr& hdr, ptl_nid_t src_nid, ptl_handle_md_t mdh,
                                       MemoryDescriptor& mdr, Placement place, Time now) {
    MemoryDescriptor* md = &mdr;
    Receive r;
    const ptl_process_id_t source{src_nid, hdr.src_pid};
    const ptl_match_bits_t bits = hdr_match_bits(hdr);
    const bool is_put = hdr.type == PTL_MSG_PUT;
    md->commit_incoming(place);

    ptl_event_t ev;
    ev.initiator = source;
    ev.uid = hdr.uid;
    ev.pt_index = hdr.pt_index;
    ev.match_bits = bits;
    ev.rlength = hdr.length;
    ev.mlength = place.mlength;
    ev.offset = place.offset;

    if (is_put) {
        ev.hdr_data = hdr_data(hdr);
        std::optional<Send> ack;
        if ((hdr.flags & PTL_HDR_ACK_REQ) && !(md->options() & PTL_MD_ACK_DISABLE)) {
            Send a;
            a.hdr.type = PTL_MSG_ACK;
            a.hdr.pt_index = hdr.pt_index;
            a.hdr.src_nid = self.nid;
            a.hdr.src_pid = uint16_t(self.pid);
            a.hdr.dst_pid = hdr.src_pid;
            a.hdr.match_bits_lo = hdr.match_bits_lo;
            a.hdr.match_bits_hi = hdr.match_bits_hi;
            a.hdr.offset = uint32_t(place.offset);
            a.hdr.md_cookie = hdr.md_cookie;
            a.hdr.mlength = uint32_t(place.mlength);
            a.hdr.uid = uint16_t(uid);  // fits: the Library checked it
            a.dst = src_nid;
            ack = std::move(a);
        }
        r.action = Receive::Action::deposit;
        r.regions = md->regions(place.offset, place.mlength);
        r.mlength = place.mlength;
        r.op = add_op(Operation{Operation::Kind::put_recv, mdh, ev, 0, std::move(ack)});
        post(mdh, *md, PTL_EVENT_PUT_START, ev, now);
        return r;
    }

    Send reply;
    reply.hdr.type = PTL_MSG_REPLY;
    reply.hdr.pt_index = hdr.pt_index;
    reply.hdr.src_nid = self.nid;
    reply.hdr.src_pid = uint16_t(self.pid);
    reply.hdr.dst_pid = hdr.src_pid;
    reply.hdr.length = uint32_t(place.mlength);
    reply.hdr.match_bits_lo = hdr.match_bits_lo;
    reply.hdr.match_bits_hi = hdr.match_bits_hi;
    reply.hdr.offset = uint32_t(place.offset);
    reply.hdr.md_cookie = hdr.md_cookie;
    reply.hdr.mlength = uint32_t(place.mlength);
    reply.hdr.uid = uid;
    reply.dst = src_nid;
    reply.payload = md->regions(place.offset, place.mlength);
    reply.length = place.mlength;
    reply.op = add_op(Operation{Operation::Kind::reply_send, mdh, ev, 0, std::nullopt});
    ++status.messages_out;
    post(mdh, *md, PTL_EVENT_GET_START, ev, now);
    r.reply = std::move(reply);
    return r;
}

// Replies and acks bypass the match lists (§2.2): md_cookie names the initiator's
// waiting operation. One whose operation or MD is gone, whose MD is inactive, or
// that does not fit is discarded and counted in stale_count.
Receive Library::State::parse_reply(const ptl_hdr& hdr, ptl_nid_t src_nid, Time now) {
    Receive r;
    auto it = awaiting.find(hdr.md_cookie);
    if (it == awaiting.end() || it->second.type != PTL_MSG_REPLY) {
        ++status.stale_count;
        return r;
    }
    Awaiting a = std::move(it->second);
    awaiting.erase(it);
    MemoryDescriptor* md = mds.find(a.md);
    std::optional<Placement> place;
    if (md && !md->inactive()) place = md->fit(hdr.length, a.local_offset);
    if (!place) {
        ++status.stale_count;
        return r;
    }
    count_local(a.md, *md);  // §3.10.1: the reply is an operation on the MD
    md->hold();
    ptl_event_t ev = a.event;
    ev.initiator = {src_nid, hdr.src_pid};
    ev.uid = hdr.uid;
    ev.mlength = place->mlength;
    ev.offset = place->offset;
    r.action = Receive::Action::deposit;
    r.regions = md->regions(place->offset, place->mlength);
    r.mlength = place->mlength;
    r.op = add_op(Operation{Operation::Kind::reply_recv, a.md, ev, 0, std::nullopt});
    post(a.md, *md, PTL_EVENT_REPLY_START, ev, now);
    return r;
}

Receive Library::State::parse_ack(const ptl_hdr& hdr, ptl_nid_t src_nid, Time now) {
    auto it = awaiting.find(hdr.md_cookie);
    if (it == awaiting.end() || it->second.type != PTL_MSG_ACK) {
        ++status.stale_count;
        return {};
    }
    Awaiting a = std::move(it->second);
    awaiting.erase(it);
    MemoryDescriptor* md = mds.find(a.md);
    if (!md || md->inactive()) {
        ++status.stale_count;
        return {};
    }
    count_local(a.md, *md);  // §3.10.1: the ack is an operation on the MD
    md->hold();
    ptl_event_t ev = a.event;
    ev.initiator = {src_nid, hdr.src_pid};
    ev.uid = hdr.uid;
    ev.mlength = hdr.mlength;
    ev.offset = hdr.offset;
    complete(a.md, PTL_EVENT_ACK, ev, true, now);
    return {};
}

// Accelerated mode: the firmware walked its copy of the match list (the same rules,
// niclab/fw/portals_match.h) and chose `mdh`; record its decision as parse() would
// have. An MD the library no longer has (unlinked while the message was on its way
// up) leaves the firmware's deposit unreported: counted stale.
Receive Library::commit(const ptl_hdr& hdr, ptl_nid_t src_nid, ptl_handle_md_t mdh, ptl_size_t offset,
                        ptl_size_t mlength, Time now) {
    State& s = *state_;
    ++status_.messages_in;
    MemoryDescriptor* md = s.mds.find(mdh);
    if (!md || (hdr.type != PTL_MSG_PUT && hdr.type != PTL_MSG_GET)) {
        ++status_.stale_count;
        return {};
    }
    return s.accept_request(hdr, src_nid, mdh, *md, Placement{offset, mlength}, now);
}

void Library::count_drop(uint64_t drops) {
    status_.messages_in += drops;
    status_.drop_count += drops;
}

void Library::State::count_local(ptl_handle_md_t mdh, MemoryDescriptor& md) {
    if (md.me() != PTL_INVALID_HANDLE && md.state().threshold > 0) counted = mdh;
    md.count_operation();
}

ptl_handle_md_t Library::take_counted() { return std::exchange(state_->counted, PTL_INVALID_HANDLE); }

// ---- Completions ----

void Library::send_done(uint64_t op, bool ok, Time now) {
    State& s = *state_;
    auto it = s.ops.find(op);
    if (it == s.ops.end() || it->second.kind == Operation::Kind::put_recv ||
        it->second.kind == Operation::Kind::reply_recv) {
        ++status_.unknown_ops;
        return;
    }
    Operation o = std::move(it->second);
    s.ops.erase(it);
    switch (o.kind) {
        case Operation::Kind::put_send: s.complete(o.md, PTL_EVENT_SEND_END, o.event, ok, now); break;
        case Operation::Kind::reply_send: s.complete(o.md, PTL_EVENT_GET_END, o.event, ok, now); break;
        case Operation::Kind::get_send:
            if (!ok) {
                // The request never left: no reply will come. niclab reports it as a
                // failed REPLY_END so the application is not left waiting.
                s.awaiting.erase(o.cookie);
                s.complete(o.md, PTL_EVENT_REPLY_END, o.event, false, now);
            } else {
                s.complete(o.md, std::nullopt, o.event, true, now);
            }
            break;
        default: break;  // ack_send: nothing to tell
    }
}

std::optional<Send> Library::receive_done(uint64_t op, bool ok, Time now) {
    State& s = *state_;
    auto it = s.ops.find(op);
    if (it == s.ops.end() ||
        (it->second.kind != Operation::Kind::put_recv && it->second.kind != Operation::Kind::reply_recv)) {
        ++status_.unknown_ops;
        return std::nullopt;
    }
    Operation o = std::move(it->second);
    s.ops.erase(it);
    const bool is_put = o.kind == Operation::Kind::put_recv;
    s.complete(o.md, is_put ? PTL_EVENT_PUT_END : PTL_EVENT_REPLY_END, o.event, ok, now);
    if (!is_put || !ok || !o.ack) return std::nullopt;
    Send ack = std::move(*o.ack);
    ack.op = s.add_op(Operation{Operation::Kind::ack_send, PTL_INVALID_HANDLE, {}, 0, std::nullopt});
    ++status_.messages_out;
    return ack;
}

}  // namespace niclab::portals
