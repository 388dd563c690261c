#pragma once
// One host process's Portals interface (Ni) on a SeaStar node, driven from outside the
// simulation: the Python API (niclab.portals) and the GUI's message injector both hold
// one. Generic mode goes through the kernel driver (SsNal); accelerated mode is the
// node's accelerated process (AccelNal, firmware built with PTL_ACCEL). Local calls
// (event queues, match entries, memory descriptors) go to the library at once; put and
// get are queued to an Injector process on the node and happen, with their host costs,
// when the system runs. An accelerated process also tells the firmware of its match
// entries and MDs through its mailbox, queued in order with its puts and gets (its
// unlinks are performed then, as the firmware may be matching on them), and a second
// host process waits in its library and takes the firmware's events as they land
// (AccelNal::serve: no interrupt).
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "niclab/msg/portals/injector.hpp"
#include "niclab/msg/portals/ni.hpp"
#include "niclab/system/system.hpp"
#include "niclab/systems/seastar/accel_nal.hpp"
#include "niclab/systems/seastar/ss_nal.hpp"

namespace niclab::seastar {

class PortalsProcess {
public:
    // Throws niclab::Error if the node is not a SeaStar running the Portals firmware,
    // or (accelerated) if its firmware has no accelerated process.
    PortalsProcess(system::System& sys, size_t node, uint32_t pid, bool accelerated = false);

    const system::System& system() const { return system_; }  // the one the process is on
    SsNal& nal() { return nal_; }  // the kernel driver: its counters and the firmware's control block
    AccelNal* accel() { return accel_; }  // the accelerated process's driver, or null (generic mode)
    portals::Ni& ni() { return ni_; }
    // The library, after checking the driver still lives (a firmware reload retires
    // it): PortalsError otherwise.
    portals::Library& lib();
    const portals::Injector& injector() const { return injector_; }

    // PtlMEAttach/Insert/Unlink, PtlMDAttach/Bind/Unlink (see above for accelerated mode).
    portals::ptl_handle_me_t me_attach(const portals::Nal::MeSpec& spec);  // spec.base set: PtlMEInsert
    void me_unlink(portals::ptl_handle_me_t me);
    portals::ptl_handle_md_t md_attach(portals::ptl_handle_me_t me, const portals::ptl_md_t& md,
                                       portals::ptl_unlink_t unlink_op);
    portals::ptl_handle_md_t md_bind(const portals::ptl_md_t& md, portals::ptl_unlink_t unlink_op);
    void md_unlink(portals::ptl_handle_md_t md);

    // PtlPut / PtlGet, queued: PortalsError at once for an MD handle that is not valid;
    // an error when performed is recorded in injector().errors().
    void put(portals::ptl_handle_md_t md, bool ack, portals::ptl_process_id_t target, portals::ptl_pt_index_t pt,
             portals::ptl_match_bits_t bits, uint64_t remote_offset, uint64_t hdr_data, uint32_t ac_index);
    void get(portals::ptl_handle_md_t md, portals::ptl_process_id_t target, portals::ptl_pt_index_t pt,
             portals::ptl_match_bits_t bits, uint64_t remote_offset, uint32_t ac_index);

private:
    // What the library accepted, for an accelerated NAL to mirror into the firmware
    // (Nal::me_attached ...), posted by the injector; generic mode keeps it all in the library.
    void tell_nal(std::function<void(host::ProcessContext&, portals::Nal&)> f);

    system::System& system_;
    SsNal& nal_;
    AccelNal* accel_;
    portals::Ni ni_;
    portals::Injector injector_;                 // its process uses ni_
    std::unique_ptr<host::Process> progress_;    // accelerated: takes the firmware's events
};

}  // namespace niclab::seastar
