#include "match_list.hpp"

#include <iterator>

#include "niclab/fw/portals_match.h"

namespace niclab::portals {

bool me_matches(const MatchEntry& me, ptl_process_id_t source, ptl_match_bits_t incoming) {
    // The firmware's accelerated matching uses the same predicate (portals_match.h).
    return ptl_me_matches(me.match_id.nid, me.match_id.pid, me.match_bits, me.ignore_bits, source.nid, source.pid,
                          incoming) != 0;
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
