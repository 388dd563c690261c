#pragma once
// Portals 3.3 data types, constants and return codes, with the specification's names
// (The Portals 3.3 Message Passing Interface, SAND2006-0420, §3 and §4). Deviations,
// each because niclab's host memory is simulated:
//   - addresses (ptl_md_t::start, iovec bases) are host physical addresses of the
//     node's simulated memory, not pointers;
//   - a PTL_MD_IOVEC descriptor carries its regions in ptl_md_t::iov instead of
//     pointing `start` at an array;
//   - events carry the simulated time they were posted (ptl_event_t::time).
#include <cstdint>
#include <string>
#include <vector>

#include "niclab/sim/error.hpp"
#include "niclab/sim/time.hpp"

namespace niclab::portals {

using ptl_nid_t = uint32_t;
using ptl_pid_t = uint32_t;
using ptl_uid_t = uint32_t;
using ptl_jid_t = uint32_t;
using ptl_pt_index_t = uint32_t;
using ptl_ac_index_t = uint32_t;
using ptl_match_bits_t = uint64_t;
using ptl_hdr_data_t = uint64_t;
using ptl_size_t = uint64_t;
using ptl_seq_t = uint32_t;

inline constexpr ptl_nid_t PTL_NID_ANY = 0xFFFFFFFFu;
inline constexpr ptl_pid_t PTL_PID_ANY = 0xFFFFFFFFu;
inline constexpr ptl_uid_t PTL_UID_ANY = 0xFFFFFFFFu;
inline constexpr ptl_jid_t PTL_JID_ANY = 0xFFFFFFFFu;
inline constexpr ptl_jid_t PTL_JID_NONE = 0xFFFFFFFFu;

struct ptl_process_id_t {
    ptl_nid_t nid = 0;
    ptl_pid_t pid = 0;
    bool operator==(const ptl_process_id_t&) const = default;
};

// Handles: index in the NI's table plus a generation, so a stale handle is detected.
using ptl_handle_eq_t = uint32_t;
using ptl_handle_me_t = uint32_t;
using ptl_handle_md_t = uint32_t;
inline constexpr uint32_t PTL_INVALID_HANDLE = 0xFFFFFFFFu;
inline constexpr ptl_handle_eq_t PTL_EQ_NONE = PTL_INVALID_HANDLE;

enum ptl_unlink_t : uint8_t { PTL_RETAIN = 0, PTL_UNLINK = 1 };
enum ptl_ins_pos_t : uint8_t { PTL_INS_BEFORE = 0, PTL_INS_AFTER = 1 };
enum ptl_ack_req_t : uint8_t { PTL_NOACK_REQ = 0, PTL_ACK_REQ = 1 };

// ptl_md_t options (§3.10.1).
inline constexpr unsigned PTL_MD_OP_PUT = 0x001;
inline constexpr unsigned PTL_MD_OP_GET = 0x002;
inline constexpr unsigned PTL_MD_MANAGE_REMOTE = 0x004;
inline constexpr unsigned PTL_MD_TRUNCATE = 0x008;
inline constexpr unsigned PTL_MD_ACK_DISABLE = 0x010;
inline constexpr unsigned PTL_MD_IOVEC = 0x020;
inline constexpr unsigned PTL_MD_MAX_SIZE = 0x040;
inline constexpr unsigned PTL_MD_EVENT_START_DISABLE = 0x080;
inline constexpr unsigned PTL_MD_EVENT_END_DISABLE = 0x100;
inline constexpr int PTL_MD_THRESH_INF = -1;

struct ptl_md_iovec_t {
    uint64_t iov_base = 0;  // host physical address
    ptl_size_t iov_len = 0;
};

struct ptl_md_t {
    uint64_t start = 0;          // host physical address (ignored with PTL_MD_IOVEC)
    ptl_size_t length = 0;       // bytes (with PTL_MD_IOVEC: the sum of iov, filled in by the library)
    int threshold = PTL_MD_THRESH_INF;
    ptl_size_t max_size = 0;     // with PTL_MD_MAX_SIZE
    unsigned options = 0;        // PTL_MD_*
    uint64_t user_ptr = 0;
    ptl_handle_eq_t eq_handle = PTL_EQ_NONE;
    std::vector<ptl_md_iovec_t> iov;  // with PTL_MD_IOVEC
};

// A contiguous memory descriptor, the common case.
inline ptl_md_t ptl_md(uint64_t start, ptl_size_t length, unsigned options, ptl_handle_eq_t eq = PTL_EQ_NONE,
                       int threshold = PTL_MD_THRESH_INF) {
    ptl_md_t md;
    md.start = start;
    md.length = length;
    md.options = options;
    md.eq_handle = eq;
    md.threshold = threshold;
    return md;
}

enum ptl_event_kind_t : uint8_t {
    PTL_EVENT_GET_START,
    PTL_EVENT_GET_END,
    PTL_EVENT_PUT_START,
    PTL_EVENT_PUT_END,
    PTL_EVENT_REPLY_START,
    PTL_EVENT_REPLY_END,
    PTL_EVENT_SEND_START,
    PTL_EVENT_SEND_END,
    PTL_EVENT_ACK,
    PTL_EVENT_UNLINK,
};
const char* ptl_event_str(ptl_event_kind_t kind);  // "PTL_EVENT_PUT_END"

enum ptl_ni_fail_t : uint8_t { PTL_NI_OK = 0, PTL_NI_FAIL = 1 };

struct ptl_event_t {
    ptl_event_kind_t type = PTL_EVENT_PUT_END;
    ptl_process_id_t initiator;
    ptl_uid_t uid = 0;
    ptl_jid_t jid = PTL_JID_NONE;
    ptl_pt_index_t pt_index = 0;
    ptl_match_bits_t match_bits = 0;
    ptl_size_t rlength = 0;  // bytes requested
    ptl_size_t mlength = 0;  // bytes manipulated
    ptl_size_t offset = 0;   // where in the MD
    ptl_handle_md_t md_handle = PTL_INVALID_HANDLE;
    ptl_md_t md;             // the MD's state after the operation
    ptl_hdr_data_t hdr_data = 0;
    uint8_t unlinked = 0;    // this operation unlinked the MD
    ptl_ni_fail_t ni_fail_type = PTL_NI_OK;
    ptl_seq_t sequence = 0;  // per event queue
    Time time{};             // niclab: simulated time it was posted
};

// Return codes (§3.17) that the C++ API reports by throwing PortalsError.
enum ptl_err_t : uint8_t {
    PTL_OK = 0,
    PTL_EQ_EMPTY,
    PTL_EQ_DROPPED,
    PTL_EQ_INVALID,
    PTL_MD_INVALID,
    PTL_MD_ILLEGAL,
    PTL_MD_IN_USE,
    PTL_ME_INVALID,
    PTL_ME_IN_USE,
    PTL_ME_LIST_TOO_LONG,
    PTL_NO_SPACE,
    PTL_PT_INDEX_INVALID,
    PTL_PROCESS_INVALID,
    PTL_AC_INDEX_INVALID,
    PTL_NI_INVALID,
    PTL_SEGV,
    PTL_FAIL,
};
const char* ptl_err_str(ptl_err_t code);  // "PTL_MD_INVALID"

class PortalsError : public Error {
public:
    // what(): "PTL_MD_INVALID: <detail>"
    PortalsError(ptl_err_t code, const std::string& detail);
    ptl_err_t code() const { return code_; }

private:
    ptl_err_t code_;
};

}  // namespace niclab::portals
