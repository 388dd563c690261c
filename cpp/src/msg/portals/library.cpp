// The Portals library's objects: event queues (§3.11), match list entries (§3.9) and
// memory descriptors (§3.10). Data movement is in library_ops.cpp.
#include <string>

#include "library_state.hpp"

namespace niclab::portals {

namespace {

void check_limit(uint32_t value, uint32_t max, const char* name) {
    if (value > max)
        throw PortalsError(PTL_NO_SPACE, std::string("Limits.") + name + " " + std::to_string(value) +
                                             " is more than the " + std::to_string(max) + " the library can address");
}

std::string what_handle(const char* call, const char* kind, uint32_t handle) {
    return std::string(call) + ": " + kind + " handle " + handle_str(handle) + " is stale or invalid";
}

}  // namespace

Library::State::State(ptl_process_id_t self_, ptl_uid_t uid_, const Limits& limits, NiStatus& status_)
    : self(self_), uid(uid_), status(status_), eqs(limits.max_eqs), mes(limits.max_mes), mds(limits.max_mds),
      portals(limits.pt_entries) {}

EventQueue& Library::State::eq(ptl_handle_eq_t handle, const char* call) {
    if (EventQueue* q = eqs.find(handle)) return *q;
    throw PortalsError(PTL_EQ_INVALID, what_handle(call, "eq", handle));
}

MatchEntry& Library::State::me(ptl_handle_me_t handle, const char* call) {
    if (MatchEntry* e = mes.find(handle)) return *e;
    throw PortalsError(PTL_ME_INVALID, what_handle(call, "me", handle));
}

MemoryDescriptor& Library::State::md(ptl_handle_md_t handle, const char* call) {
    if (MemoryDescriptor* d = mds.find(handle)) return *d;
    throw PortalsError(PTL_MD_INVALID, what_handle(call, "md", handle));
}

void Library::State::check_eq_handle(ptl_handle_eq_t handle, const char* call) {
    if (handle != PTL_EQ_NONE) eq(handle, call);
}

void Library::State::unlink_md(ptl_handle_md_t mdh) {
    MemoryDescriptor* d = mds.find(mdh);
    if (!d) return;
    for (auto it = awaiting.begin(); it != awaiting.end();) {
        if (it->second.md == mdh)
            it = awaiting.erase(it);
        else
            ++it;
    }
    if (MatchEntry* e = mes.find(d->me())) {
        e->md = PTL_INVALID_HANDLE;
        // §3.9.2: an ME attached with PTL_UNLINK goes when its memory descriptor goes.
        if (e->unlink_op == PTL_UNLINK) {
            portals.remove(e->pt_index, e->position);
            mes.erase(d->me());
        }
    }
    mds.erase(mdh);
}

// ---- Library ----

Library::Library(ptl_process_id_t self, ptl_uid_t uid, Limits limits) : self_(self), uid_(uid), limits_(limits) {
    if (self.pid > 0xFFFF)
        throw PortalsError(PTL_PROCESS_INVALID,
                           "pid " + std::to_string(self.pid) + " does not fit the header's 16-bit src_pid");
    if (uid > 0xFFFF)  // ptl_hdr.uid is 16 bits (the other half of its word is go-back-N's)
        throw PortalsError(PTL_FAIL, "uid " + std::to_string(uid) + " does not fit the header's 16-bit uid");
    check_limit(limits.pt_entries, 0x10000, "pt_entries");  // ptl_hdr.pt_index is 16 bits
    check_limit(limits.max_eqs, kMaxHandleSlots, "max_eqs");
    check_limit(limits.max_mes, kMaxHandleSlots, "max_mes");
    check_limit(limits.max_mds, kMaxHandleSlots, "max_mds");
    state_ = std::make_unique<State>(self_, uid_, limits_, status_);
}

Library::~Library() = default;

// ---- Event queues ----

ptl_handle_eq_t Library::eq_alloc(ptl_size_t count) {
    if (count == 0) throw PortalsError(PTL_NO_SPACE, "eq_alloc: an event queue of 0 events holds nothing");
    if (state_->eqs.full())
        throw PortalsError(PTL_NO_SPACE, "eq_alloc: all " + std::to_string(limits_.max_eqs) +
                                             " event queues are in use (Limits.max_eqs)");
    return state_->eqs.insert(std::make_unique<EventQueue>(count));
}

void Library::eq_free(ptl_handle_eq_t eq) {
    state_->eq(eq, "eq_free");
    // MDs still naming it post nothing from now on (their look-up fails).
    state_->eqs.erase(eq);
}

ptl_err_t Library::eq_get(ptl_handle_eq_t eq, ptl_event_t& event) { return state_->eq(eq, "eq_get").get(event); }

host::Condition& Library::eq_condition(ptl_handle_eq_t eq) { return state_->eq(eq, "eq_condition").condition(); }

size_t Library::eq_pending(ptl_handle_eq_t eq) const { return state_->eq(eq, "eq_pending").pending(); }

// ---- Match list entries ----

ptl_handle_me_t Library::me_attach(ptl_pt_index_t pt_index, ptl_process_id_t match_id, ptl_match_bits_t match_bits,
                                   ptl_match_bits_t ignore_bits, ptl_unlink_t unlink_op, ptl_ins_pos_t position) {
    State& s = *state_;
    if (!s.portals.valid(pt_index))
        throw PortalsError(PTL_PT_INDEX_INVALID, "me_attach: pt_index " + std::to_string(pt_index) +
                                                     " is outside the portal table of " +
                                                     std::to_string(s.portals.size()) + " entries");
    if (s.mes.full())
        throw PortalsError(PTL_NO_SPACE, "me_attach: all " + std::to_string(limits_.max_mes) +
                                             " match entries are in use (Limits.max_mes)");
    auto e = std::make_unique<MatchEntry>(MatchEntry{pt_index, match_id, match_bits, ignore_bits, unlink_op,
                                                     PTL_INVALID_HANDLE, {}});
    MatchEntry* entry = e.get();
    ptl_handle_me_t h = s.mes.insert(std::move(e));
    entry->position = s.portals.attach(pt_index, h, position);
    return h;
}

ptl_handle_me_t Library::me_insert(ptl_handle_me_t base, ptl_process_id_t match_id, ptl_match_bits_t match_bits,
                                   ptl_match_bits_t ignore_bits, ptl_unlink_t unlink_op, ptl_ins_pos_t position) {
    State& s = *state_;
    MatchEntry& b = s.me(base, "me_insert");
    if (s.mes.full())
        throw PortalsError(PTL_NO_SPACE, "me_insert: all " + std::to_string(limits_.max_mes) +
                                             " match entries are in use (Limits.max_mes)");
    const ptl_pt_index_t pt = b.pt_index;
    const auto base_pos = b.position;
    auto e = std::make_unique<MatchEntry>(MatchEntry{pt, match_id, match_bits, ignore_bits, unlink_op,
                                                     PTL_INVALID_HANDLE, {}});
    MatchEntry* entry = e.get();
    ptl_handle_me_t h = s.mes.insert(std::move(e));
    entry->position = s.portals.insert(pt, base_pos, h, position);
    return h;
}

void Library::check_me_unlink(ptl_handle_me_t me) const {
    State& s = *state_;
    const MatchEntry& e = s.me(me, "me_unlink");
    if (const MemoryDescriptor* d = s.mds.find(e.md); d && d->pending() > 0)
        throw PortalsError(PTL_ME_IN_USE, "me_unlink: me handle " + handle_str(me) + " has md " + handle_str(e.md) +
                                              " with " + std::to_string(d->pending()) + " operations in flight");
}

void Library::me_unlink(ptl_handle_me_t me) {
    check_me_unlink(me);
    State& s = *state_;
    MatchEntry& e = s.me(me, "me_unlink");
    if (s.mds.find(e.md)) {
        const ptl_handle_md_t mdh = e.md;
        e.unlink_op = PTL_RETAIN;  // removed below, whatever its own unlink_op
        s.unlink_md(mdh);
    }
    MatchEntry& still = s.me(me, "me_unlink");
    s.portals.remove(still.pt_index, still.position);
    s.mes.erase(me);
}

std::vector<ptl_handle_me_t> Library::match_list(ptl_pt_index_t pt_index) const {
    const State& s = *state_;
    if (!s.portals.valid(pt_index))
        throw PortalsError(PTL_PT_INDEX_INVALID, "match_list: pt_index " + std::to_string(pt_index) +
                                                     " is outside the portal table of " +
                                                     std::to_string(s.portals.size()) + " entries");
    const auto& l = s.portals.list(pt_index);
    return {l.begin(), l.end()};
}

bool Library::me_valid(ptl_handle_me_t me) const { return state_->mes.find(me) != nullptr; }

// ---- Memory descriptors ----

ptl_handle_md_t Library::md_attach(ptl_handle_me_t me, const ptl_md_t& md, ptl_unlink_t unlink_op) {
    State& s = *state_;
    MatchEntry& e = s.me(me, "md_attach");
    if (e.md != PTL_INVALID_HANDLE)
        throw PortalsError(PTL_ME_IN_USE, "md_attach: me handle " + handle_str(me) + " already has md " +
                                              handle_str(e.md));
    s.check_eq_handle(md.eq_handle, "md_attach");
    if (s.mds.full())
        throw PortalsError(PTL_NO_SPACE, "md_attach: all " + std::to_string(limits_.max_mds) +
                                             " memory descriptors are in use (Limits.max_mds)");
    e.md = s.mds.insert(std::make_unique<MemoryDescriptor>(md, unlink_op, me));
    return e.md;
}

ptl_handle_md_t Library::md_bind(const ptl_md_t& md, ptl_unlink_t unlink_op) {
    State& s = *state_;
    s.check_eq_handle(md.eq_handle, "md_bind");
    if (s.mds.full())
        throw PortalsError(PTL_NO_SPACE, "md_bind: all " + std::to_string(limits_.max_mds) +
                                             " memory descriptors are in use (Limits.max_mds)");
    return s.mds.insert(std::make_unique<MemoryDescriptor>(md, unlink_op, PTL_INVALID_HANDLE));
}

void Library::check_md_unlink(ptl_handle_md_t md) const {
    const MemoryDescriptor& d = state_->md(md, "md_unlink");
    if (d.pending() > 0)
        throw PortalsError(PTL_MD_IN_USE, "md_unlink: md handle " + handle_str(md) + " has " +
                                              std::to_string(d.pending()) + " operations in flight");
}

void Library::md_unlink(ptl_handle_md_t md) {
    check_md_unlink(md);
    // An explicit unlink posts no PTL_EVENT_UNLINK: that event reports automatic
    // unlinks, which the application cannot otherwise see (§3.11.1).
    state_->unlink_md(md);
}

ptl_md_t Library::md_state(ptl_handle_md_t md) const { return state_->md(md, "md_state").state(); }

ptl_size_t Library::md_local_offset(ptl_handle_md_t md) const {
    return state_->md(md, "md_local_offset").local_offset();
}

bool Library::md_valid(ptl_handle_md_t md) const { return state_->mds.find(md) != nullptr; }

}  // namespace niclab::portals
