#include "memory_descriptor.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>

#include "niclab/fw/portals_match.h"

namespace niclab::portals {

namespace {

constexpr unsigned kKnownOptions = PTL_MD_OP_PUT | PTL_MD_OP_GET | PTL_MD_MANAGE_REMOTE | PTL_MD_TRUNCATE |
                                   PTL_MD_ACK_DISABLE | PTL_MD_IOVEC | PTL_MD_MAX_SIZE |
                                   PTL_MD_EVENT_START_DISABLE | PTL_MD_EVENT_END_DISABLE;

// ptl_hdr carries lengths and offsets in 32 bits.
constexpr ptl_size_t kWireMax = std::numeric_limits<uint32_t>::max();

std::string hex(uint64_t v) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}

}  // namespace

MemoryDescriptor::MemoryDescriptor(const ptl_md_t& md, ptl_unlink_t unlink_op, ptl_handle_me_t me)
    : md_(md), unlink_op_(unlink_op), me_(me) {
    if (md.options & ~kKnownOptions)
        throw PortalsError(PTL_MD_ILLEGAL, "unknown option bits " + hex(md.options & ~kKnownOptions));
    if (md.threshold < PTL_MD_THRESH_INF)
        throw PortalsError(PTL_MD_ILLEGAL, "threshold " + std::to_string(md.threshold) +
                                               " (neither >= 0 nor PTL_MD_THRESH_INF)");
    if (md.options & PTL_MD_IOVEC) {
        ptl_size_t total = 0;
        for (const ptl_md_iovec_t& v : md.iov) {
            if (v.iov_len > kWireMax - total)
                throw PortalsError(PTL_MD_ILLEGAL, "PTL_MD_IOVEC regions add up to more than " + hex(kWireMax) + " bytes");
            total += v.iov_len;
        }
        md_.length = total;
    } else if (!md.iov.empty()) {
        throw PortalsError(PTL_MD_ILLEGAL, std::to_string(md.iov.size()) + " iov regions without PTL_MD_IOVEC");
    }
    if (md_.length > kWireMax)
        throw PortalsError(PTL_MD_ILLEGAL, "length " + hex(md_.length) + " exceeds the 32-bit wire length");
}

bool MemoryDescriptor::full() const {
    // Shared with the firmware's accelerated matching (portals_match.h).
    return ptl_md_full(md_.options, md_.length, local_offset_, md_.max_size) != 0;
}

std::optional<Placement> MemoryDescriptor::accept(unsigned op, ptl_size_t rlength, ptl_size_t roffset) const {
    if (!(md_.options & op) || inactive()) return std::nullopt;
    return fit(rlength, ptl_md_target_offset(md_.options, local_offset_, roffset));
}

std::optional<Placement> MemoryDescriptor::fit(ptl_size_t rlength, ptl_size_t offset) const {
    uint64_t mlength = 0;
    if (!ptl_md_fit(md_.options, md_.length, offset, rlength, &mlength)) return std::nullopt;
    return Placement{offset, mlength};
}

void MemoryDescriptor::commit_incoming(const Placement& p) {
    count_operation();
    if (!(md_.options & PTL_MD_MANAGE_REMOTE)) local_offset_ = p.offset + p.mlength;
    hold();
}

void MemoryDescriptor::count_operation() {
    if (md_.threshold > 0) --md_.threshold;
}

Regions MemoryDescriptor::regions(ptl_size_t offset, ptl_size_t length) const {
    Regions out;
    if (length == 0) return out;
    if (!(md_.options & PTL_MD_IOVEC)) {
        out.push_back({md_.start + offset, length});
        return out;
    }
    for (const ptl_md_iovec_t& v : md_.iov) {
        if (length == 0) break;
        if (offset >= v.iov_len) {
            offset -= v.iov_len;
            continue;
        }
        const ptl_size_t n = std::min(v.iov_len - offset, length);
        out.push_back({v.iov_base + offset, n});
        length -= n;
        offset = 0;
    }
    return out;
}

}  // namespace niclab::portals

// The firmware's copy of the option bits must be the library's.
static_assert(niclab::portals::PTL_MD_OP_PUT == PTL_MATCH_OP_PUT && niclab::portals::PTL_MD_OP_GET == PTL_MATCH_OP_GET &&
              niclab::portals::PTL_MD_MANAGE_REMOTE == PTL_MATCH_MANAGE_REMOTE &&
              niclab::portals::PTL_MD_TRUNCATE == PTL_MATCH_TRUNCATE && niclab::portals::PTL_MD_MAX_SIZE == PTL_MATCH_MAX_SIZE &&
              niclab::portals::PTL_NID_ANY == PTL_MATCH_NID_ANY && niclab::portals::PTL_PID_ANY == PTL_MATCH_PID_ANY,
              "portals_match.h and types.hpp disagree");
