#pragma once
// The portal table and its match lists (SAND2006-0420 §2.2, §3.9): one ordered list
// of match entries per portal table index, and the match predicate. Lists hold ME
// handles, never pointers, so the walk order is only the insertion order.
#include <cstdint>
#include <list>
#include <vector>

#include "niclab/msg/portals/types.hpp"

namespace niclab::portals {

struct MatchEntry {
    ptl_pt_index_t pt_index = 0;
    ptl_process_id_t match_id;
    ptl_match_bits_t match_bits = 0;
    ptl_match_bits_t ignore_bits = 0;
    ptl_unlink_t unlink_op = PTL_RETAIN;      // unlink the ME when its MD is unlinked (§3.9.2)
    ptl_handle_md_t md = PTL_INVALID_HANDLE;  // at most one MD per ME in 3.3
    std::list<uint32_t>::iterator position;   // where it sits in its match list
};

// §3.9.2 (PtlMEAttach) and §2.2: the source must match match_id (PTL_NID_ANY /
// PTL_PID_ANY match anything) and the incoming match bits must equal the entry's in
// every bit that ignore_bits does not mask.
bool me_matches(const MatchEntry& me, ptl_process_id_t source, ptl_match_bits_t incoming);

class PortalTable {
public:
    using List = std::list<uint32_t>;
    explicit PortalTable(uint32_t entries) : lists_(entries) {}

    bool valid(ptl_pt_index_t index) const { return index < lists_.size(); }
    uint32_t size() const { return uint32_t(lists_.size()); }
    const List& list(ptl_pt_index_t index) const { return lists_.at(index); }

    // §3.9.2: PTL_INS_BEFORE puts the entry at the head of the list, PTL_INS_AFTER at
    // the tail. §3.9.3 (PtlMEInsert): before or after `base`.
    List::iterator attach(ptl_pt_index_t index, uint32_t me, ptl_ins_pos_t position);
    List::iterator insert(ptl_pt_index_t index, List::iterator base, uint32_t me, ptl_ins_pos_t position);
    void remove(ptl_pt_index_t index, List::iterator position) { lists_.at(index).erase(position); }

private:
    std::vector<List> lists_;
};

}  // namespace niclab::portals
