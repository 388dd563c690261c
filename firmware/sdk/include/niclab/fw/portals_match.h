/*
 * Portals 3.3 matching semantics (SAND2006-0420 §2.2, §3.9, §3.10.1), in one place
 * for both sides that match: the host library (cpp/src/msg/portals/match_list.cpp and
 * memory_descriptor.cpp, generic mode) and the firmware (firmware/portals/accel_match.c,
 * accelerated mode, seed 000 §4.3.2: "For accelerated processes, Portals matching is
 * performed by the firmware"). Pure functions of their arguments: C99 that the RV32IM
 * firmware and the C++ host compile alike, so the two cannot drift apart.
 */
#ifndef NICLAB_FW_PORTALS_MATCH_H
#define NICLAB_FW_PORTALS_MATCH_H

#include <stdint.h>

/* Wildcards of a match entry's match_id (types.hpp: PTL_NID_ANY, PTL_PID_ANY). */
#define PTL_MATCH_NID_ANY 0xFFFFFFFFu
#define PTL_MATCH_PID_ANY 0xFFFFFFFFu

/* ptl_md_t options the matcher reads (types.hpp has the full set, same values). */
#define PTL_MATCH_OP_PUT          0x001u
#define PTL_MATCH_OP_GET          0x002u
#define PTL_MATCH_MANAGE_REMOTE   0x004u
#define PTL_MATCH_TRUNCATE        0x008u
#define PTL_MATCH_MAX_SIZE        0x040u

/* §3.9.2: the source must match match_id (wildcards match anything) and the incoming
 * match bits must equal the entry's in every bit ignore_bits does not mask. */
static inline int ptl_me_matches(uint32_t want_nid, uint32_t want_pid, uint64_t match_bits, uint64_t ignore_bits,
                                 uint32_t src_nid, uint32_t src_pid, uint64_t incoming)
{
    if (want_nid != PTL_MATCH_NID_ANY && want_nid != src_nid)
        return 0;
    if (want_pid != PTL_MATCH_PID_ANY && want_pid != src_pid)
        return 0;
    return ((incoming ^ match_bits) & ~ignore_bits) == 0;
}

/* §3.10.1 max_size: full once the unused space falls below max_size; ignored with
 * MANAGE_REMOTE, whose local offset never moves. */
static inline int ptl_md_full(uint32_t options, uint64_t length, uint64_t local_offset, uint64_t max_size)
{
    if (!(options & PTL_MATCH_MAX_SIZE) || (options & PTL_MATCH_MANAGE_REMOTE))
        return 0;
    return length - local_offset < max_size;
}

/* Inactive: threshold 0 or full. `threshold` is -1 for PTL_MD_THRESH_INF. */
static inline int ptl_md_inactive(int32_t threshold, uint32_t options, uint64_t length, uint64_t local_offset,
                                  uint64_t max_size)
{
    return threshold == 0 || ptl_md_full(options, length, local_offset, max_size);
}

/* Room for `rlength` bytes at `offset` (truncated with TRUNCATE)? Sets *mlength. */
static inline int ptl_md_fit(uint32_t options, uint64_t length, uint64_t offset, uint64_t rlength, uint64_t *mlength)
{
    if (offset > length)
        return 0;
    if (rlength <= length - offset) {
        *mlength = rlength;
        return 1;
    }
    if (options & PTL_MATCH_TRUNCATE) {
        *mlength = length - offset;
        return 1;
    }
    return 0;
}

/* Where an accepted operation lands: the request's offset with MANAGE_REMOTE, the
 * local offset otherwise. */
static inline uint64_t ptl_md_target_offset(uint32_t options, uint64_t local_offset, uint64_t remote_offset)
{
    return (options & PTL_MATCH_MANAGE_REMOTE) ? remote_offset : local_offset;
}

#endif /* NICLAB_FW_PORTALS_MATCH_H */
