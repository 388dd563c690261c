#pragma once
// A network abstraction layer: what the process-facing Portals API (Ni) needs from a
// system's Portals driver. The library (library.hpp) is the same on every system; the
// NAL carries its Sends to the network and feeds it the headers and completions that
// come back. The SeaStar's are the generic-mode driver (systems/seastar/ss_nal.hpp)
// and the accelerated-mode user-level driver (systems/seastar/accel_nal.hpp).
#include "niclab/host/process.hpp"
#include "niclab/msg/portals/library.hpp"
#include "niclab/sim/time.hpp"

namespace niclab::portals {

class Nal {
public:
    virtual ~Nal() = default;

    // This node's id: a library's process id is (nid, pid).
    virtual ptl_nid_t nid() const = 0;
    // The library of process `pid` on this node (the NAL routes headers by dst_pid).
    // attach throws PortalsError(PTL_PROCESS_INVALID) if the pid already has one.
    virtual void attach(Library& lib) = 0;
    virtual void detach(Library& lib) = 0;
    // Throws niclab::Error once the NAL is no longer usable (its firmware was reloaded).
    virtual void check_live() const = 0;
    // Throws PortalsError(PTL_PROCESS_INVALID) for a node that does not exist.
    virtual void check_target(ptl_nid_t nid, const char* call) const = 0;
    // From a host process (a Portals API call): transmit `s`, blocking while the NAL
    // has no room for it.
    virtual void transmit(host::ProcessContext& ctx, Send s) = 0;
    // The library work of one API call after the trap into the kernel (generic mode).
    virtual Time api_call_cost() const = 0;

    // A Portals API call enters the library: in generic mode a trap into the kernel
    // (the null trap, seed 001 §3.3) and the library's work there. Accelerated mode
    // stays at user level and polls its event queue (seed 000 §4.1).
    virtual void enter(host::ProcessContext& ctx) {
        check_live();
        ctx.syscall(api_call_cost());
    }
    // PtlEQWait: block until `lib` has an event in `eq`. Generic mode: the kernel's
    // interrupt handler posts it.
    virtual void wait_event(host::ProcessContext& ctx, Library& lib, ptl_handle_eq_t eq) {
        ctx.wait_for(lib.eq_condition(eq), [&] { return lib.eq_pending(eq) > 0; });
    }

    // What an accelerated NAL mirrors into the firmware (accelerated mode matches
    // there, seed 000 §4.3.2); generic mode keeps everything in the library. The
    // attach hooks are called after the library accepted the call; check_md before it
    // (throws PortalsError for a descriptor this NAL cannot serve). The unlink hooks
    // are called after the library's own checks and before it unlinks: the firmware
    // may have matched the entry meanwhile, so it decides, and the hook throws
    // PortalsError (PTL_ME_IN_USE / PTL_MD_IN_USE) when it refuses. Returning, it has
    // unlinked its copy, or found it gone (the library then finds the same).
    struct MeSpec {
        ptl_pt_index_t pt_index = 0;
        ptl_process_id_t match_id;
        ptl_match_bits_t match_bits = 0, ignore_bits = 0;
        ptl_unlink_t unlink_op = PTL_RETAIN;
        ptl_ins_pos_t position = PTL_INS_AFTER;
        ptl_handle_me_t base = PTL_INVALID_HANDLE;  // PtlMEInsert: relative to this entry
    };
    virtual void check_md(const ptl_md_t& md, const char* call) const {
        (void)md;
        (void)call;
    }
    virtual void me_attached(host::ProcessContext&, ptl_handle_me_t, const MeSpec&) {}
    virtual void md_attached(host::ProcessContext&, ptl_handle_me_t, ptl_handle_md_t, const ptl_md_t&, ptl_unlink_t) {}
    virtual void me_unlink(host::ProcessContext&, ptl_handle_me_t) {}
    virtual void md_unlink(host::ProcessContext&, ptl_handle_md_t) {}
};

}  // namespace niclab::portals
