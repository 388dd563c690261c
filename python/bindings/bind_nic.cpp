// niclab._niclab.Nic: one simulated NIC. Owned by its System; Python holds references.
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include "bindings.hpp"
#include "system_guard.hpp"
#include "niclab/nic/embedded_nic.hpp"
#include "niclab/sim/error.hpp"
#include "niclab/systems/seastar/host_bridge.hpp"

namespace py = pybind11;
using niclab::nic::EmbeddedNic;

namespace niclab::bindings {

namespace {
const char* state_name(core::Cpu::State s) {
    switch (s) {
        case core::Cpu::State::Reset: return "reset";
        case core::Cpu::State::Running: return "running";
        case core::Cpu::State::Waiting: return "waiting";
        case core::Cpu::State::Halted: return "halted";
        case core::Cpu::State::Faulted: return "faulted";
    }
    return "?";
}

py::dict boot_report(const nic::BootReport& r) {
    py::dict d;
    d["started_us"] = r.started.as_us();
    d["running_us"] = r.running.as_us();
    d["boot_us"] = (r.running - r.started).as_us();
    d["instructions"] = r.instructions;
    return d;
}

py::dict load(EmbeddedNic& n, const std::filesystem::path& path) {
    RunMark mark(guard_key(n), "Nic.load_firmware");  // the boot runs the system
    nic::BootReport r;
    {
        py::gil_scoped_release release;
        r = n.load_firmware(path);
    }
    return boot_report(r);
}

// The host windows are the SeaStar's: found on the NIC's memory map at address 0.
seastar::HostBridge& host_bridge(EmbeddedNic& n) {
    auto* bridge = dynamic_cast<seastar::HostBridge*>(n.memory_map().window_at(0));
    if (!bridge) throw Error("node " + std::to_string(n.node_id()) + ": this NIC has no SeaStar host bridge windows");
    return *bridge;
}

py::dict cache_stats(const core::CacheModel& c, bool enabled) {
    py::dict d;
    d["enabled"] = enabled;
    d["accesses"] = c.accesses;
    d["misses"] = c.misses;
    d["writebacks"] = c.writebacks;
    return d;
}
}  // namespace

void bind_nic(py::module_& m) {
    guarded_class<EmbeddedNic>(m, "Nic")
        .def_property_readonly("loads", &nic::EmbeddedNic::loads)
        .def_property_readonly("node_id", &EmbeddedNic::node_id)
        .def("load_firmware", &load, py::arg("path"))
        .def("reload_firmware", &load, py::arg("path"))  // the same flow on a live NIC
        .def_property_readonly("firmware", [](const EmbeddedNic& n) -> py::object {
            if (!n.image()) return py::none();
            return py::str(n.image()->path().string());
        })
        .def_property_readonly("build_id", [](const EmbeddedNic& n) -> py::object {
            if (!n.image()) return py::none();
            return py::str(n.image()->build_id());
        })
        .def("symbol", [](const EmbeddedNic& n, const std::string& name) -> py::object {
            uint32_t a;
            if (!n.image() || !n.image()->find_symbol(name, a)) return py::none();
            return py::int_(a);
        }, py::arg("name"))
        .def("where", [](const EmbeddedNic& n, uint32_t address) { return text(n.where(address)); }, py::arg("address"))
        .def_property_readonly("state", [](const EmbeddedNic& n) { return state_name(n.cpu().state()); })
        .def_property_readonly("halted", &EmbeddedNic::halted)
        .def_property_readonly("faulted", &EmbeddedNic::faulted)
        .def_property_readonly("stop_time_us", [](const EmbeddedNic& n) { return n.cpu().stop_time().as_us(); })
        .def_property_readonly("exit_code", [](const EmbeddedNic& n) { return n.cpu().exit_code(); })
        .def_property_readonly("fault", [](const EmbeddedNic& n) -> py::object {
            auto f = n.fault();
            if (!f) return py::none();
            py::object exc = py::module_::import("niclab.errors").attr("FirmwareFault")(text(f->what()));
            for (auto item : fault_attrs(*f)) py::setattr(exc, item.first, item.second);
            return exc;
        })
        // What the firmware printed: any bytes, so invalid UTF-8 shows as U+FFFD.
        .def_property_readonly("console", [](const EmbeddedNic& n) { return text(n.console()); })
        .def_property_readonly("pc", [](const EmbeddedNic& n) { return n.cpu().pc(); })
        .def_property_readonly("registers", [](const EmbeddedNic& n) {
            std::vector<uint32_t> r(32);
            for (unsigned i = 0; i < 32; ++i) r[i] = n.cpu().reg(i);
            return r;
        })
        .def("csr", [](const EmbeddedNic& n, uint32_t number) {
            uint32_t v;
            if (!n.cpu().read_csr(number, v)) throw py::value_error("CSR " + std::to_string(number) + " is not implemented");
            return v;
        }, py::arg("number"))
        .def_property_readonly("cycles", [](const EmbeddedNic& n) { return n.cpu().cycles(); })
        .def_property_readonly("instret", [](const EmbeddedNic& n) { return n.cpu().instret(); })
        .def_property_readonly("stall_cycles", [](const EmbeddedNic& n) { return n.cpu().stall_cycles(); })
        // Polling fast-forward (core/spin.cpp): on by default; off runs every pass of a
        // loop spinning on SRAM, with the same results to the cycle.
        .def("set_spin_skip", [](EmbeddedNic& n, bool on) { n.cpu().set_spin_skip(on); }, py::arg("on"))
        // Translated blocks (core/translate.hpp): on by default; off, the blocks the core
        // builds from now on run as threaded code, with the same results to the cycle.
        .def("set_block_translation", [](EmbeddedNic& n, bool on) { n.cpu().set_block_translation(on); }, py::arg("on"))
        .def_property_readonly("spin_passes_skipped", [](const EmbeddedNic& n) { return n.cpu().spin_passes_skipped(); })
        .def_property_readonly("clock_mhz", [](const EmbeddedNic& n) { return n.cpu().clock().mhz(); })
        .def_property_readonly("icache", [](const EmbeddedNic& n) { return cache_stats(n.cpu().icache(), n.cpu().icache_enabled()); })
        .def_property_readonly("dcache", [](const EmbeddedNic& n) { return cache_stats(n.cpu().dcache(), n.cpu().dcache_enabled()); })
        .def_property_readonly("host_interrupts", [](EmbeddedNic& n) { return n.control().host_interrupts(); })
        .def("peek32", &EmbeddedNic::peek32, py::arg("address"))
        .def("poke32", &EmbeddedNic::poke32, py::arg("address"), py::arg("value"))
        .def("read_sram", [](const EmbeddedNic& n, uint32_t address, uint32_t length) {
            n.sram_offset(address, length);  // range check before allocating
            std::string out(length, '\0');
            n.read_sram(address, {reinterpret_cast<uint8_t*>(out.data()), out.size()});
            return py::bytes(out);
        }, py::arg("address"), py::arg("length"))
        .def("write_sram", [](EmbeddedNic& n, uint32_t address, const py::bytes& data) {
            std::string_view v = data;
            n.write_sram(address, {reinterpret_cast<const uint8_t*>(v.data()), v.size()});
        }, py::arg("address"), py::arg("data"))
        .def("open_host_window", [](EmbeddedNic& n, unsigned index, uint64_t host_addr, uint32_t limit, bool writable) {
            host_bridge(n).open_window(index, host_addr, limit, writable);
        }, py::arg("index"), py::arg("host_addr"), py::arg("limit"), py::arg("writable") = true)
        .def("close_host_window", [](EmbeddedNic& n, unsigned index) { host_bridge(n).close_window(index); }, py::arg("index"))
        .def("raise_interrupt", [](EmbeddedNic& n, uint32_t sources) { n.control().raise_external(sources); },
             py::arg("sources") = 1);
}

}  // namespace niclab::bindings
