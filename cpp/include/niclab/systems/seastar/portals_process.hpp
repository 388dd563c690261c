#pragma once
// One host process's generic-mode Portals interface (Ni) on a SeaStar node, driven from
// outside the simulation: the Python API (niclab.portals) and the GUI's message
// injector both hold one. Local calls (event queues, match entries, memory
// descriptors) go to the library at once; put and get are queued to an Injector
// process on the node and happen, with their host costs, when the system runs.
#include <cstdint>
#include <string>

#include "niclab/msg/portals/injector.hpp"
#include "niclab/msg/portals/ni.hpp"
#include "niclab/system/system.hpp"
#include "niclab/systems/seastar/ss_nal.hpp"

namespace niclab::seastar {

class PortalsProcess {
public:
    // Throws niclab::Error if the node is not a SeaStar running the Portals firmware.
    PortalsProcess(system::System& sys, size_t node, uint32_t pid);

    SsNal& nal() { return nal_; }  // its counters and the firmware's control block
    portals::Ni& ni() { return ni_; }
    // The library, after checking the driver still lives (a firmware reload retires
    // it): PortalsError otherwise.
    portals::Library& lib();
    const portals::Injector& injector() const { return injector_; }

    // PtlPut / PtlGet, queued: PortalsError at once for an MD handle that is not valid;
    // an error when performed is recorded in injector().errors().
    void put(portals::ptl_handle_md_t md, bool ack, portals::ptl_process_id_t target, portals::ptl_pt_index_t pt,
             portals::ptl_match_bits_t bits, uint64_t remote_offset, uint64_t hdr_data, uint32_t ac_index);
    void get(portals::ptl_handle_md_t md, portals::ptl_process_id_t target, portals::ptl_pt_index_t pt,
             portals::ptl_match_bits_t bits, uint64_t remote_offset, uint32_t ac_index);

private:
    SsNal& nal_;
    portals::Ni ni_;
    portals::Injector injector_;  // last: its process uses ni_
};

}  // namespace niclab::seastar
