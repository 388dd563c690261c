#include "match_list.hpp"

#include <iterator>

namespace niclab::portals {

bool me_matches(const MatchEntry& me, ptl_process_id_t source, ptl_match_bits_t incoming) {
    if (me.match_id.nid != PTL_NID_ANY && me.match_id.nid != source.nid) return false;
    if (me.match_id.pid != PTL_PID_ANY && me.match_id.pid != source.pid) return false;
    return ((incoming ^ me.match_bits) & ~me.ignore_bits) == 0;
}

PortalTable::List::iterator PortalTable::attach(ptl_pt_index_t index, uint32_t me, ptl_ins_pos_t position) {
    List& l = lists_.at(index);
    return l.insert(position == PTL_INS_BEFORE ? l.begin() : l.end(), me);
}

PortalTable::List::iterator PortalTable::insert(ptl_pt_index_t index, List::iterator base, uint32_t me,
                                                ptl_ins_pos_t position) {
    List& l = lists_.at(index);
    return l.insert(position == PTL_INS_BEFORE ? base : std::next(base), me);
}

}  // namespace niclab::portals
