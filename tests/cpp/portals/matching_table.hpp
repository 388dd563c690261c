#pragma once
// The matching table (SAND2006-0420 §2.2, §3.9, §3.10.1): each row sets up a match list
// on the target, then sends it messages from initiators; each step states which entry
// took the message (or that it was dropped), where it landed, the target's events, how
// many entries were examined and the match list afterwards. Run against the host
// library (test_portals_matching.cpp, generic mode) and against the firmware's matching
// of an accelerated process (tests/cpp/msg/test_portals_accel_matching.cpp): one table,
// two matchers that must agree.
#include <algorithm>
#include <utility>
#include <vector>

#include "portals_test_support.hpp"

namespace niclab::portals::test {

constexpr int kDropped = -1;
constexpr ptl_process_id_t kAnyone{PTL_NID_ANY, PTL_PID_ANY};

struct MeRow {
    ptl_process_id_t match_id = kAnyone;
    ptl_match_bits_t match_bits = 0;
    ptl_match_bits_t ignore_bits = 0;
    ptl_unlink_t me_unlink = PTL_RETAIN;
    ptl_ins_pos_t position = PTL_INS_AFTER;
    int base = -1;  // >= 0: me_insert relative to that row's entry instead of me_attach
    ptl_size_t length = 16;
    unsigned options = PTL_MD_OP_PUT;
    int threshold = PTL_MD_THRESH_INF;
    ptl_size_t max_size = 0;
    ptl_unlink_t md_unlink = PTL_RETAIN;
    bool has_md = true;
};

struct Step {
    // The message.
    uint8_t type = PTL_MSG_PUT;
    ptl_process_id_t from = kInitiator;
    ptl_match_bits_t bits = 0;
    ptl_size_t length = 4;
    ptl_size_t offset = 0;  // remote offset
    ptl_pt_index_t pt_index = kPortal;
    // What must happen.
    int matched = 0;  // row index of the entry that takes it, or kDropped
    ptl_size_t mlength = 4;
    ptl_size_t md_offset = 0;
    std::vector<ptl_event_kind_t> events;  // at the target, after the deposit / reply finished
    uint32_t examined = 1;
    std::vector<int> list_after;  // rows still in the match list, in order
};

struct Row {
    const char* name;
    std::vector<MeRow> mes;
    std::vector<Step> steps;
};

inline const std::vector<ptl_event_kind_t> kPut{PTL_EVENT_PUT_START, PTL_EVENT_PUT_END};
inline const std::vector<ptl_event_kind_t> kPutUnlink{PTL_EVENT_PUT_START, PTL_EVENT_PUT_END, PTL_EVENT_UNLINK};
inline const std::vector<ptl_event_kind_t> kGet{PTL_EVENT_GET_START, PTL_EVENT_GET_END};
inline const std::vector<ptl_event_kind_t> kNone{};

inline Step put(ptl_match_bits_t bits, int matched, std::vector<ptl_event_kind_t> events, uint32_t examined,
         std::vector<int> list_after) {
    Step s;
    s.bits = bits;
    s.matched = matched;
    s.events = std::move(events);
    s.examined = examined;
    s.list_after = std::move(list_after);
    if (matched == kDropped) s.mlength = 0;
    return s;
}

inline Step with_src(Step s, ptl_process_id_t from) {
    s.from = from;
    return s;
}
inline Step with_len(Step s, ptl_size_t length, ptl_size_t mlength, ptl_size_t md_offset, ptl_size_t roffset = 0) {
    s.length = length;
    s.mlength = mlength;
    s.md_offset = md_offset;
    s.offset = roffset;
    return s;
}
inline Step landing(Step s, ptl_size_t md_offset) {  // where the MD's local offset puts it
    s.md_offset = md_offset;
    return s;
}
inline Step as_get(Step s) {
    s.type = PTL_MSG_GET;
    return s;
}

inline MeRow me(ptl_match_bits_t bits, ptl_match_bits_t ignore = 0) {
    MeRow m;
    m.match_bits = bits;
    m.ignore_bits = ignore;
    return m;
}
inline MeRow from(MeRow m, ptl_process_id_t id) {
    m.match_id = id;
    return m;
}
inline MeRow md(MeRow m, ptl_size_t length, unsigned options, int threshold = PTL_MD_THRESH_INF,
         ptl_unlink_t md_unlink = PTL_RETAIN) {
    m.length = length;
    m.options = options;
    m.threshold = threshold;
    m.md_unlink = md_unlink;
    return m;
}
inline MeRow placed(MeRow m, ptl_ins_pos_t position, int base = -1) {
    m.position = position;
    m.base = base;
    return m;
}
inline MeRow me_unlink(MeRow m) {
    m.me_unlink = PTL_UNLINK;
    return m;
}
inline MeRow max_size(MeRow m, ptl_size_t max) {
    m.options |= PTL_MD_MAX_SIZE;
    m.max_size = max;
    return m;
}
inline MeRow no_md(MeRow m) {
    m.has_md = false;
    return m;
}

constexpr unsigned PUT = PTL_MD_OP_PUT;
constexpr unsigned GET = PTL_MD_OP_GET;

inline const std::vector<Row> kRows = {
    // ---- match bits and ignore bits ----
    {"exact_bits_match", {me(0x10)}, {put(0x10, 0, kPut, 1, {0})}},
    {"bits_mismatch_drops", {me(0x10)}, {put(0x11, kDropped, kNone, 1, {0})}},
    {"ignore_bits_mask_low_nibble", {me(0x10, 0x0F)},
     {put(0x1F, 0, kPut, 1, {0}), landing(put(0x10, 0, kPut, 1, {0}), 4), put(0x20, kDropped, kNone, 1, {0})}},
    {"high_match_bits", {me(0xDEAD000000000001ull)},
     {put(0xDEAD000000000001ull, 0, kPut, 1, {0}), put(0x0000000000000001ull, kDropped, kNone, 1, {0})}},
    {"all_bits_ignored", {me(0, ~0ull)}, {put(0x123456789ull, 0, kPut, 1, {0})}},
    {"first_matching_entry_wins", {me(0x1), me(0x2), me(0x2)}, {put(0x2, 1, kPut, 2, {0, 1, 2})}},
    // ---- source nid/pid ----
    {"nid_pid_wildcards", {from(me(0), kAnyone)},
     {put(0, 0, kPut, 1, {0}), landing(with_src(put(0, 0, kPut, 1, {0}), {9, 33}), 4)}},
    {"nid_mismatch", {from(me(0), {3, PTL_PID_ANY})}, {put(0, kDropped, kNone, 1, {0})}},
    {"nid_match_pid_any", {from(me(0), {1, PTL_PID_ANY})},
     {put(0, 0, kPut, 1, {0}), with_src(put(0, kDropped, kNone, 1, {0}), {2, 5})}},
    {"pid_mismatch", {from(me(0), {PTL_NID_ANY, 9})}, {put(0, kDropped, kNone, 1, {0})}},
    {"pid_match_nid_any", {from(me(0), {PTL_NID_ANY, 5}), me(0)},
     {put(0, 0, kPut, 1, {0, 1}), with_src(put(0, 1, kPut, 2, {0, 1}), {1, 6})}},
    {"exact_process", {from(me(0), {1, 5})},
     {put(0, 0, kPut, 1, {0}), with_src(put(0, kDropped, kNone, 1, {0}), {1, 4})}},
    // ---- insertion ----
    {"attach_before_goes_to_head", {me(0), placed(me(0), PTL_INS_BEFORE)}, {put(0, 1, kPut, 1, {1, 0})}},
    {"attach_after_goes_to_tail", {me(0), placed(me(0), PTL_INS_AFTER)}, {put(0, 0, kPut, 1, {0, 1})}},
    {"insert_before_base", {me(1), me(0), placed(me(0), PTL_INS_BEFORE, 1)}, {put(0, 2, kPut, 2, {0, 2, 1})}},
    {"insert_after_base", {me(0), me(1), placed(me(0), PTL_INS_AFTER, 0)}, {put(0, 0, kPut, 1, {0, 2, 1})}},
    {"insert_after_base_reached_second", {me(1), me(2), placed(me(2), PTL_INS_AFTER, 0)},
     {put(2, 2, kPut, 2, {0, 2, 1})}},
    // ---- an MD that rejects passes the message on (§2.2, figure 2.5) ----
    {"entry_without_md_skipped", {no_md(me(0)), me(0)}, {put(0, 1, kPut, 2, {0, 1})}},
    {"get_only_md_rejects_put", {md(me(0), 16, GET), md(me(0), 16, PUT)}, {put(0, 1, kPut, 2, {0, 1})}},
    {"put_only_md_rejects_get", {md(me(0), 16, PUT), md(me(0), 16, GET)},
     {as_get(with_len(put(0, 1, kGet, 2, {0, 1}), 4, 4, 0))}},
    {"no_op_enabled_drops", {md(me(0), 16, 0)}, {put(0, kDropped, kNone, 1, {0})}},
    {"too_long_rejected_then_truncated", {md(me(0), 8, PUT), md(me(0), 8, PUT | PTL_MD_TRUNCATE)},
     {with_len(put(0, 1, kPut, 2, {0, 1}), 16, 8, 0)}},
    {"too_long_everywhere_drops", {md(me(0), 8, PUT), md(me(0), 4, PUT)},
     {with_len(put(0, kDropped, kNone, 2, {0, 1}), 16, 0, 0)}},
    {"exact_fit_accepted", {md(me(0), 8, PUT)}, {with_len(put(0, 0, kPut, 1, {0}), 8, 8, 0)}},
    // ---- offsets ----
    {"local_offset_advances", {md(me(0), 12, PUT)},
     {with_len(put(0, 0, kPut, 1, {0}), 4, 4, 0), with_len(put(0, 0, kPut, 1, {0}), 4, 4, 4),
      with_len(put(0, 0, kPut, 1, {0}), 4, 4, 8), with_len(put(0, kDropped, kNone, 1, {0}), 4, 0, 0)}},
    {"local_offset_ignores_remote_offset", {md(me(0), 12, PUT)},
     {with_len(put(0, 0, kPut, 1, {0}), 4, 4, 0, 8), with_len(put(0, 0, kPut, 1, {0}), 4, 4, 4, 8)}},
    {"truncate_at_local_offset", {md(me(0), 10, PUT | PTL_MD_TRUNCATE)},
     {with_len(put(0, 0, kPut, 1, {0}), 8, 8, 0), with_len(put(0, 0, kPut, 1, {0}), 8, 2, 8),
      with_len(put(0, 0, kPut, 1, {0}), 8, 0, 10)}},
    {"manage_remote_uses_header_offset", {md(me(0), 16, PUT | PTL_MD_MANAGE_REMOTE)},
     {with_len(put(0, 0, kPut, 1, {0}), 4, 4, 8, 8), with_len(put(0, 0, kPut, 1, {0}), 4, 4, 0, 0),
      with_len(put(0, 0, kPut, 1, {0}), 4, 4, 12, 12)}},
    {"manage_remote_beyond_end_rejected", {md(me(0), 16, PUT | PTL_MD_MANAGE_REMOTE)},
     {with_len(put(0, kDropped, kNone, 1, {0}), 4, 0, 0, 14), with_len(put(0, kDropped, kNone, 1, {0}), 1, 0, 0, 17)}},
    {"manage_remote_truncates", {md(me(0), 16, PUT | PTL_MD_MANAGE_REMOTE | PTL_MD_TRUNCATE)},
     {with_len(put(0, 0, kPut, 1, {0}), 4, 2, 14, 14)}},
    // ---- threshold and unlink ----
    {"threshold_unlinks_md_and_me", {me_unlink(md(me(0), 16, PUT, 2, PTL_UNLINK))},
     {put(0, 0, kPut, 1, {0}), landing(put(0, 0, kPutUnlink, 1, {}), 4), put(0, kDropped, kNone, 0, {})}},
    {"threshold_unlinks_md_me_retained", {md(me(0), 16, PUT, 1, PTL_UNLINK), me(0)},
     {put(0, 0, kPutUnlink, 1, {0, 1}), put(0, 1, kPut, 2, {0, 1})}},
    {"threshold_zero_md_retained_rejects", {md(me(0), 16, PUT, 1, PTL_RETAIN), me(0)},
     {put(0, 0, kPut, 1, {0, 1}), put(0, 1, kPut, 2, {0, 1})}},
    {"threshold_zero_from_start", {md(me(0), 16, PUT, 0, PTL_UNLINK), me(0)}, {put(0, 1, kPut, 2, {0, 1})}},
    {"threshold_inf_never_unlinks", {me_unlink(md(me(0), 64, PUT, PTL_MD_THRESH_INF, PTL_UNLINK))},
     {put(0, 0, kPut, 1, {0}), landing(put(0, 0, kPut, 1, {0}), 4), landing(put(0, 0, kPut, 1, {0}), 8)}},
    {"get_counts_against_threshold", {me_unlink(md(me(0), 16, PUT | GET, 2, PTL_UNLINK))},
     {put(0, 0, kPut, 1, {0}),
      as_get(with_len(put(0, 0, {PTL_EVENT_GET_START, PTL_EVENT_GET_END, PTL_EVENT_UNLINK}, 1, {}), 4, 4, 4))}},
    {"full_with_max_size_unlinks", {me_unlink(max_size(md(me(0), 16, PUT, PTL_MD_THRESH_INF, PTL_UNLINK), 8))},
     {with_len(put(0, 0, kPut, 1, {0}), 4, 4, 0), with_len(put(0, 0, kPutUnlink, 1, {}), 6, 6, 4)}},
    {"full_with_max_size_retained_rejects",
     {max_size(md(me(0), 16, PUT, PTL_MD_THRESH_INF, PTL_RETAIN), 8), me(0)},
     {with_len(put(0, 0, kPut, 1, {0, 1}), 10, 10, 0), with_len(put(0, 1, kPut, 2, {0, 1}), 2, 2, 0)}},
    {"max_size_ignored_with_manage_remote",
     {me_unlink(max_size(md(me(0), 16, PUT | PTL_MD_MANAGE_REMOTE, PTL_MD_THRESH_INF, PTL_UNLINK), 8))},
     {with_len(put(0, 0, kPut, 1, {0}), 12, 12, 0), with_len(put(0, 0, kPut, 1, {0}), 12, 12, 0)}},
    // ---- event options ----
    {"start_disabled", {md(me(0), 16, PUT | PTL_MD_EVENT_START_DISABLE)}, {put(0, 0, {PTL_EVENT_PUT_END}, 1, {0})}},
    {"end_disabled", {md(me(0), 16, PUT | PTL_MD_EVENT_END_DISABLE)}, {put(0, 0, {PTL_EVENT_PUT_START}, 1, {0})}},
    {"both_disabled_unlink_still_posted",
     {md(me(0), 16, PUT | PTL_MD_EVENT_START_DISABLE | PTL_MD_EVENT_END_DISABLE, 1, PTL_UNLINK)},
     {put(0, 0, {PTL_EVENT_UNLINK}, 1, {0})}},
    // ---- portal index ----
    {"other_portal_is_empty", {me(0)}, {[] {
         Step s = put(0, kDropped, kNone, 0, {0});
         s.pt_index = kPortal + 1;
         return s;
     }()}},
    {"portal_outside_table_drops", {me(0)}, {[] {
         Step s = put(0, kDropped, kNone, 0, {0});
         s.pt_index = 64;
         return s;
     }()}},
};

// The target's events after step `st` (drained from `eq`), whichever matcher decided.
inline void expect_step_events(Library& target, ptl_handle_eq_t eq, const Step& st,
                               const std::vector<ptl_handle_md_t>& mds) {
    auto events = drain(target, eq);
    EXPECT_EQ(names(kinds(events)), names(st.events));
    for (const auto& ev : events) {
        ASSERT_NE(st.matched, kDropped);
        EXPECT_EQ(ev.md_handle, mds.at(size_t(st.matched)));
        EXPECT_EQ(ev.mlength, st.mlength);
        EXPECT_EQ(ev.offset, st.md_offset);
        EXPECT_EQ(ev.rlength, st.length);
        EXPECT_EQ(ev.match_bits, st.bits);
        EXPECT_EQ(ev.initiator, st.from);
        const bool unlinking = names(st.events).find("UNLINK") != std::string::npos;
        const bool reports_it =
            ev.type == PTL_EVENT_UNLINK || ev.type == PTL_EVENT_PUT_END || ev.type == PTL_EVENT_GET_END;
        EXPECT_EQ(int(ev.unlinked), int(unlinking && reports_it)) << ptl_event_str(ev.type);
    }
}

// The target's match list after step `st`; an entry no longer listed was unlinked, and
// so was its MD. Returns the entries listed, in order.
inline std::vector<ptl_handle_me_t> expect_list_after(Library& target, const Step& st,
                                                      const std::vector<ptl_handle_me_t>& mes,
                                                      const std::vector<ptl_handle_md_t>& mds) {
    std::vector<ptl_handle_me_t> expect_list;
    for (int i : st.list_after) expect_list.push_back(mes.at(size_t(i)));
    EXPECT_EQ(target.match_list(kPortal), expect_list);
    for (size_t i = 0; i < mes.size(); ++i) {
        bool listed = std::find(expect_list.begin(), expect_list.end(), mes[i]) != expect_list.end();
        EXPECT_EQ(target.me_valid(mes[i]), listed) << "entry " << i;
        if (!listed && mds[i] != PTL_INVALID_HANDLE) {
            EXPECT_FALSE(target.md_valid(mds[i])) << "md " << i;
        }
    }
    return expect_list;
}

}  // namespace niclab::portals::test
