#pragma once
// A memory descriptor (SAND2006-0420 §3.10) and its rules: which operations it
// accepts and where they land (§2.2, §3.10.1), its threshold, its local offset and
// when it becomes inactive and, with PTL_UNLINK, is unlinked.
//
//   accepts   the operation is enabled (PTL_MD_OP_PUT / PTL_MD_OP_GET), the MD is
//             active, and the request fits at the offset, or PTL_MD_TRUNCATE is set
//             (then mlength = min(rlength, length - offset)). An MD that rejects lets
//             the match-list walk continue with the next entry (§2.2, figure 2.5).
//   offset    the local offset, advanced by mlength after every accepted operation,
//             unless PTL_MD_MANAGE_REMOTE: then the request's offset is used and the
//             local offset is left alone (§3.10.1, "By default, the offset is
//             maintained locally ... incremented by the length of the request").
//   threshold decremented by every operation that can generate an event (§3.10.1):
//             an accepted put or get at the target, a put sent by the initiator, a
//             reply or an ack received; never for PTL_MD_THRESH_INF. A get request
//             counts nothing until its reply (Sandia's 3.3 reference implementation
//             does the same: "sending a get request cannot generate events").
//   inactive  threshold 0, or (PTL_MD_MAX_SIZE) the unused space length - local offset
//             fell below max_size (§3.10.1, max_size). Inactive MDs accept nothing.
//             MAX_SIZE is ignored with MANAGE_REMOTE, whose local offset never moves
//             (the reference implementation also drops it).
//   unlink    an inactive MD attached or bound with PTL_UNLINK is unlinked once no
//             operation is pending on it.
#include <cstdint>
#include <optional>
#include <vector>

#include "niclab/msg/portals/library.hpp"
#include "niclab/msg/portals/types.hpp"

namespace niclab::portals {

struct Placement {
    ptl_size_t offset = 0;   // where in the MD
    ptl_size_t mlength = 0;  // bytes manipulated
};

class MemoryDescriptor {
public:
    // Validates `md` (throws PortalsError PTL_MD_ILLEGAL naming the problem) and, for
    // PTL_MD_IOVEC, fills in its length as the sum of the regions.
    MemoryDescriptor(const ptl_md_t& md, ptl_unlink_t unlink_op, ptl_handle_me_t me);

    // The descriptor as it is now (its threshold counts down): events' md field and
    // PtlMDUpdate's old_md.
    const ptl_md_t& state() const { return md_; }
    unsigned options() const { return md_.options; }
    ptl_size_t length() const { return md_.length; }
    ptl_size_t local_offset() const { return local_offset_; }
    ptl_unlink_t unlink_op() const { return unlink_op_; }
    ptl_handle_me_t me() const { return me_; }
    uint32_t pending() const { return pending_; }

    bool full() const;
    bool inactive() const { return md_.threshold == 0 || full(); }
    // Inactive, PTL_UNLINK and nothing pending: unlink it now.
    bool unlink_due() const { return unlink_op_ == PTL_UNLINK && inactive() && pending_ == 0; }

    // Would it take an incoming `op` (PTL_MD_OP_PUT or PTL_MD_OP_GET) of `rlength`
    // bytes at remote offset `roffset`? nullopt: rejected.
    std::optional<Placement> accept(unsigned op, ptl_size_t rlength, ptl_size_t roffset) const;
    // Room for `rlength` bytes at `offset` (truncated with PTL_MD_TRUNCATE)?
    std::optional<Placement> fit(ptl_size_t rlength, ptl_size_t offset) const;

    // An accepted incoming put/get: count it, advance the local offset, hold the MD.
    void commit_incoming(const Placement& p);
    void count_operation();  // threshold - 1 (not below 0, never for THRESH_INF)
    void hold() { ++pending_; }
    void release() { --pending_; }

    // The host memory of bytes [offset, offset + length) in order; empty pieces left out.
    Regions regions(ptl_size_t offset, ptl_size_t length) const;

private:
    ptl_md_t md_;
    ptl_unlink_t unlink_op_;
    ptl_handle_me_t me_;  // PTL_INVALID_HANDLE: bound (PtlMDBind)
    ptl_size_t local_offset_ = 0;
    uint32_t pending_ = 0;  // operations in flight (a transmit or a deposit)
};

}  // namespace niclab::portals
