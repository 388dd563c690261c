// Names of the Portals 3.3 event kinds and return codes, and PortalsError.
#include "niclab/msg/portals/types.hpp"

namespace niclab::portals {

const char* ptl_event_str(ptl_event_kind_t kind) {
    switch (kind) {
        case PTL_EVENT_GET_START: return "PTL_EVENT_GET_START";
        case PTL_EVENT_GET_END: return "PTL_EVENT_GET_END";
        case PTL_EVENT_PUT_START: return "PTL_EVENT_PUT_START";
        case PTL_EVENT_PUT_END: return "PTL_EVENT_PUT_END";
        case PTL_EVENT_REPLY_START: return "PTL_EVENT_REPLY_START";
        case PTL_EVENT_REPLY_END: return "PTL_EVENT_REPLY_END";
        case PTL_EVENT_SEND_START: return "PTL_EVENT_SEND_START";
        case PTL_EVENT_SEND_END: return "PTL_EVENT_SEND_END";
        case PTL_EVENT_ACK: return "PTL_EVENT_ACK";
        case PTL_EVENT_UNLINK: return "PTL_EVENT_UNLINK";
    }
    return "PTL_EVENT_<unknown>";
}

const char* ptl_err_str(ptl_err_t code) {
    switch (code) {
        case PTL_OK: return "PTL_OK";
        case PTL_EQ_EMPTY: return "PTL_EQ_EMPTY";
        case PTL_EQ_DROPPED: return "PTL_EQ_DROPPED";
        case PTL_EQ_INVALID: return "PTL_EQ_INVALID";
        case PTL_MD_INVALID: return "PTL_MD_INVALID";
        case PTL_MD_ILLEGAL: return "PTL_MD_ILLEGAL";
        case PTL_MD_IN_USE: return "PTL_MD_IN_USE";
        case PTL_ME_INVALID: return "PTL_ME_INVALID";
        case PTL_ME_IN_USE: return "PTL_ME_IN_USE";
        case PTL_ME_LIST_TOO_LONG: return "PTL_ME_LIST_TOO_LONG";
        case PTL_NO_SPACE: return "PTL_NO_SPACE";
        case PTL_PT_INDEX_INVALID: return "PTL_PT_INDEX_INVALID";
        case PTL_PROCESS_INVALID: return "PTL_PROCESS_INVALID";
        case PTL_AC_INDEX_INVALID: return "PTL_AC_INDEX_INVALID";
        case PTL_NI_INVALID: return "PTL_NI_INVALID";
        case PTL_SEGV: return "PTL_SEGV";
        case PTL_FAIL: return "PTL_FAIL";
    }
    return "PTL_<unknown>";
}

PortalsError::PortalsError(ptl_err_t code, const std::string& detail)
    : Error(std::string(ptl_err_str(code)) + ": " + detail), code_(code) {}

}  // namespace niclab::portals
