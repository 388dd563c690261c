#pragma once
// A network abstraction layer: what the process-facing Portals API (Ni) needs from a
// system's Portals driver. The library (library.hpp) is the same on every system; the
// NAL carries its Sends to the network and feeds it the headers and completions that
// come back. The SeaStar's is the generic-mode driver (systems/seastar/ss_nal.hpp).
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
};

}  // namespace niclab::portals
