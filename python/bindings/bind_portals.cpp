// niclab._niclab.PortalsInterface: one host process's Portals interface on a node,
// generic or the node's accelerated process, driven from Python (the core's
// seastar::PortalsProcess: its header says when each call takes effect).
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "system_guard.hpp"
#include "niclab/msg/portals/ni.hpp"
#include "niclab/systems/seastar/portals_process.hpp"
#include "niclab/system/system.hpp"

namespace py = pybind11;
using namespace niclab::portals;

namespace niclab::bindings {

namespace {

// The interface is the core's PortalsProcess (the GUI's injector holds the same).
using PortalsInterface = seastar::PortalsProcess;

ptl_md_t make_md(uint64_t start, uint64_t length, unsigned options, int threshold, uint64_t max_size,
                 uint32_t eq, uint64_t user_ptr, const std::vector<std::pair<uint64_t, uint64_t>>& iov) {
    ptl_md_t md = ptl_md(start, length, options, eq, threshold);
    md.max_size = max_size;
    md.user_ptr = user_ptr;
    for (auto [base, len] : iov) md.iov.push_back({base, len});
    if (!md.iov.empty()) md.options |= PTL_MD_IOVEC;
    return md;
}

py::dict md_dict(const ptl_md_t& md) {
    py::dict d;
    d["start"] = md.start;
    d["length"] = md.length;
    d["threshold"] = md.threshold;
    d["max_size"] = md.max_size;
    d["options"] = md.options;
    d["user_ptr"] = md.user_ptr;
    d["eq"] = md.eq_handle;
    return d;
}

py::dict event_dict(const ptl_event_t& e) {
    py::dict d;
    d["type"] = ptl_event_str(e.type);
    d["initiator"] = py::make_tuple(e.initiator.nid, e.initiator.pid);
    d["uid"] = e.uid;
    d["jid"] = e.jid;
    d["pt_index"] = e.pt_index;
    d["match_bits"] = e.match_bits;
    d["rlength"] = e.rlength;
    d["mlength"] = e.mlength;
    d["offset"] = e.offset;
    d["md_handle"] = e.md_handle;
    d["md"] = md_dict(e.md);
    d["hdr_data"] = e.hdr_data;
    d["unlinked"] = bool(e.unlinked);
    d["ni_fail"] = e.ni_fail_type != PTL_NI_OK;
    d["sequence"] = e.sequence;
    d["time_us"] = e.time.as_us();
    return d;
}

ptl_process_id_t pid_of(const std::pair<uint32_t, uint32_t>& p) { return {p.first, p.second}; }

}  // namespace

void bind_portals(py::module_& m) {
    guarded_class<PortalsInterface>(m, "PortalsInterface")
        .def(py::init([](system::System& sys, size_t node, uint32_t pid, bool accelerated) {
            return std::make_unique<PortalsInterface>(sys, node, pid, accelerated);
        }), py::arg("system"), py::arg("node"), py::arg("pid"), py::arg("accelerated") = false, py::keep_alive<1, 2>())
        .def_property_readonly("accelerated", [](PortalsInterface& p) { return p.accel() != nullptr; })
        .def_property_readonly("nid", [](PortalsInterface& p) { return p.ni().id().nid; })
        .def_property_readonly("pid", [](PortalsInterface& p) { return p.ni().id().pid; })
        .def("eq_alloc", [](PortalsInterface& p, uint64_t count) { return p.lib().eq_alloc(count); }, py::arg("count"))
        .def("eq_free", [](PortalsInterface& p, uint32_t eq) { p.lib().eq_free(eq); }, py::arg("eq"))
        .def("eq_get", [](PortalsInterface& p, uint32_t eq) -> py::object {
            ptl_event_t ev;
            ptl_err_t rc = p.lib().eq_get(eq, ev);
            if (rc == PTL_EQ_EMPTY) return py::none();
            py::dict d = event_dict(ev);
            d["dropped"] = rc == PTL_EQ_DROPPED;
            return d;
        }, py::arg("eq"))
        .def("eq_pending", [](PortalsInterface& p, uint32_t eq) { return p.lib().eq_pending(eq); }, py::arg("eq"))
        .def("me_attach", [](PortalsInterface& p, uint32_t pt, std::pair<uint32_t, uint32_t> source, uint64_t bits,
                             uint64_t ignore, bool unlink, bool after) {
            return p.me_attach({pt, pid_of(source), bits, ignore, unlink ? PTL_UNLINK : PTL_RETAIN,
                                after ? PTL_INS_AFTER : PTL_INS_BEFORE, PTL_INVALID_HANDLE});
        }, py::arg("pt_index"), py::arg("source"), py::arg("match_bits"), py::arg("ignore_bits"), py::arg("unlink"),
           py::arg("after"))
        .def("me_insert", [](PortalsInterface& p, uint32_t base, std::pair<uint32_t, uint32_t> source, uint64_t bits,
                             uint64_t ignore, bool unlink, bool after) {
            return p.me_attach({0, pid_of(source), bits, ignore, unlink ? PTL_UNLINK : PTL_RETAIN,
                                after ? PTL_INS_AFTER : PTL_INS_BEFORE, base});
        }, py::arg("base"), py::arg("source"), py::arg("match_bits"), py::arg("ignore_bits"), py::arg("unlink"),
           py::arg("after"))
        .def("me_unlink", [](PortalsInterface& p, uint32_t me) { p.me_unlink(me); }, py::arg("me"))
        .def("match_list", [](PortalsInterface& p, uint32_t pt) { return p.lib().match_list(pt); }, py::arg("pt_index"))
        .def("md_attach", [](PortalsInterface& p, uint32_t me, uint64_t start, uint64_t length, unsigned options,
                             int threshold, uint64_t max_size, uint32_t eq, uint64_t user_ptr,
                             const std::vector<std::pair<uint64_t, uint64_t>>& iov, bool unlink) {
            return p.md_attach(me, make_md(start, length, options, threshold, max_size, eq, user_ptr, iov),
                                     unlink ? PTL_UNLINK : PTL_RETAIN);
        }, py::arg("me"), py::arg("start"), py::arg("length"), py::arg("options"), py::arg("threshold"),
           py::arg("max_size"), py::arg("eq"), py::arg("user_ptr"), py::arg("iov"), py::arg("unlink"))
        .def("md_bind", [](PortalsInterface& p, uint64_t start, uint64_t length, unsigned options, int threshold,
                           uint64_t max_size, uint32_t eq, uint64_t user_ptr,
                           const std::vector<std::pair<uint64_t, uint64_t>>& iov, bool unlink) {
            return p.md_bind(make_md(start, length, options, threshold, max_size, eq, user_ptr, iov),
                                   unlink ? PTL_UNLINK : PTL_RETAIN);
        }, py::arg("start"), py::arg("length"), py::arg("options"), py::arg("threshold"), py::arg("max_size"),
           py::arg("eq"), py::arg("user_ptr"), py::arg("iov"), py::arg("unlink"))
        .def("md_unlink", [](PortalsInterface& p, uint32_t md) { p.md_unlink(md); }, py::arg("md"))
        .def("md_state", [](PortalsInterface& p, uint32_t md) { return md_dict(p.lib().md_state(md)); }, py::arg("md"))
        .def("put", [](PortalsInterface& p, uint32_t md, std::pair<uint32_t, uint32_t> target, uint32_t pt,
                       uint64_t bits, uint64_t offset, bool ack, uint64_t hdr_data, uint32_t ac) {
            p.put(md, ack, pid_of(target), pt, bits, offset, hdr_data, ac);
        }, py::arg("md"), py::arg("target"), py::arg("pt_index"), py::arg("match_bits"), py::arg("remote_offset"),
           py::arg("ack"), py::arg("hdr_data"), py::arg("ac_index"))
        .def("get", [](PortalsInterface& p, uint32_t md, std::pair<uint32_t, uint32_t> target, uint32_t pt,
                       uint64_t bits, uint64_t offset, uint32_t ac) {
            p.get(md, pid_of(target), pt, bits, offset, ac);
        }, py::arg("md"), py::arg("target"), py::arg("pt_index"), py::arg("match_bits"), py::arg("remote_offset"),
           py::arg("ac_index"))
        .def_property_readonly("queued", [](PortalsInterface& p) { return p.injector().queued(); })
        .def_property_readonly("errors", [](PortalsInterface& p) { return p.injector().errors(); })
        .def("status", [](PortalsInterface& p) {
            const NiStatus& s = p.ni().library().status();
            py::dict d;
            d["drop_count"] = s.drop_count;
            d["messages_in"] = s.messages_in;
            d["messages_out"] = s.messages_out;
            return d;
        })
        .def("driver_counters", [](PortalsInterface& p) {
            const seastar::NalCounters& c = p.nal().counters();
            py::dict d;
            d["interrupts"] = c.interrupts;
            if (const seastar::AccelNal* a = p.accel()) {  // the process's own driver; interrupts: the kernel's
                const seastar::AccelCounters& ac = a->counters();
                for (auto [key, value] : {std::pair{"events", ac.events}, {"matched", ac.matched},
                                          {"dropped", ac.dropped}, {"announced", ac.announced},
                                          {"commands", ac.commands}, {"transmits", ac.transmits},
                                          {"polls", ac.polls}, {"syscalls", ac.syscalls}})
                    d[key] = value;
                return d;
            }
            d["events"] = c.events;
            d["transmits"] = c.transmits;
            d["inline_sends"] = c.inline_sends;
            d["commands"] = c.commands;
            d["tx_pool_waits"] = c.tx_pool_waits;
            return d;
        })
        .def("niccb", [](PortalsInterface& p) {
            const ptl_niccb& cb = p.nal().niccb();
            py::dict d;
            d["features"] = cb.features;
            d["tx_pendings"] = cb.tx_pendings;
            d["rx_pendings"] = cb.rx_pendings;
            d["sources"] = cb.sources;
            d["segments"] = cb.segments;
            d["pending_bytes"] = cb.pending_bytes;
            d["source_bytes"] = cb.source_bytes;
            d["sram_structs"] = cb.sram_structs;
            d["tx_messages"] = cb.tx_messages;
            d["rx_messages"] = cb.rx_messages;
            d["host_interrupts"] = cb.host_interrupts;
            d["events"] = cb.events;
            d["rx_in_use"] = cb.rx_in_use;
            d["rx_in_use_max"] = cb.rx_in_use_max;
            d["sources_in_use"] = cb.sources_in_use;
            d["sources_in_use_max"] = cb.sources_in_use_max;
            d["tx_fifo_yields"] = cb.tx_fifo_yields;
            d["ctrl_pendings"] = cb.ctrl_pendings;
            d["rx_drops"] = cb.rx_drops;
            d["nacks_sent"] = cb.nacks_sent;
            d["nacks_received"] = cb.nacks_received;
            d["acks_sent"] = cb.acks_sent;
            d["acks_received"] = cb.acks_received;
            d["retransmits"] = cb.retransmits;
            d["accel_matches"] = cb.accel_matches;
            d["accel_drops"] = cb.accel_drops;
            d["accel_examined"] = cb.accel_examined;
            d["accel_events"] = cb.accel_events;
            d["accel_mes"] = cb.accel_mes;
            d["accel_mds"] = cb.accel_mds;
            d["tx_source_waits"] = cb.tx_source_waits;
            d["tx_skips"] = cb.tx_skips;
            d["skips_received"] = cb.skips_received;
            return d;
        });
}

}  // namespace niclab::bindings
