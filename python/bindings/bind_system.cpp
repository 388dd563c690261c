// niclab._niclab.System: a cluster built from a spec dict; runs release the GIL and
// report progress to an optional Python observer between slices of simulated time.
#include <chrono>

#include <pybind11/functional.h>
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "system_guard.hpp"
#include "niclab/net/topology_registry.hpp"
#include "niclab/net/topology_text.hpp"
#include "niclab/system/config_error.hpp"
#include "niclab/system/preset.hpp"
#include "niclab/system/published.hpp"
#include "niclab/system/system.hpp"
#include "niclab/system/system_model.hpp"

namespace py = pybind11;
using niclab::system::System;

namespace niclab::bindings {

namespace {
// A preset's parameters as dicts of key, value, unit and source.
py::list parameter_list(const system::Preset& preset) {
    py::list out;
    for (const auto& p : preset.parameters()) {
        py::dict d;
        d["key"] = p.key;
        d["value"] = from_json(system::number_json(p.value));
        d["unit"] = p.unit;
        d["source"] = p.source;
        out.append(d);
    }
    return out;
}

struct HostMemoryRef {
    host::HostMemory* mem;
    const System* sys;
    const System& system() const { return *sys; }
};

py::dict run(System& s, Time until, py::object observer, double interval_us) {
    RunMark mark(guard_key(s), "run");  // released back under the GIL, as the result is built
    bool interrupted = false;
    const bool observed = !observer.is_none();
    auto last_signal_check = std::chrono::steady_clock::now();
    s.set_observer(
        [&](Time t) {
            // Without an observer the GIL is only taken to look for Ctrl-C, a few times a
            // second of wall time: a busy Python thread must not slow the simulation down.
            // (Slicing never changes simulated results, so this cannot break determinism.)
            auto wall = std::chrono::steady_clock::now();
            if (!observed && wall - last_signal_check < std::chrono::milliseconds(100)) return true;
            last_signal_check = wall;
            py::gil_scoped_acquire gil;
            if (PyErr_CheckSignals() != 0) {  // Ctrl-C in a notebook or a terminal stops the run cleanly
                interrupted = true;
                return false;
            }
            if (observer.is_none()) return true;
            py::object keep_going = observer(t.as_us());
            return keep_going.is_none() || keep_going.cast<bool>();
        },
        Time::ps(int64_t(interval_us * 1e6)));
    System::RunResult r;
    {
        py::gil_scoped_release release;
        r = s.run_until(until);
    }
    s.set_observer(nullptr, Time::us(100));
    if (interrupted) throw py::error_already_set();
    py::dict d;
    d["reached_us"] = r.reached.as_us();
    d["stopped"] = r.stopped_by_observer;
    d["faulted_nodes"] = r.faulted_nodes;
    d["dead_nodes"] = r.dead_nodes;
    return d;
}
}  // namespace

void bind_system(py::module_& m) {
    guarded_class<HostMemoryRef>(m, "HostMemory")
        .def("read", [](const HostMemoryRef& h, uint64_t addr, uint64_t length) {
            if (length > (uint64_t(1) << 32)) throw py::value_error("read of " + std::to_string(length) + " bytes: at most 4 GiB at once");
            std::string out(length, '\0');
            h.mem->read(addr, {reinterpret_cast<uint8_t*>(out.data()), out.size()});
            return py::bytes(out);
        }, py::arg("address"), py::arg("length"))
        .def("write", [](HostMemoryRef& h, uint64_t addr, const py::bytes& data) {
            std::string_view v = data;
            h.mem->write(addr, {reinterpret_cast<const uint8_t*>(v.data()), v.size()});
        }, py::arg("address"), py::arg("data"))
        .def_property_readonly("pages_touched", [](const HostMemoryRef& h) {
            return h.mem->pages_touched();
        });

    guarded_class<System>(m, "System")
        .def(py::init([](const py::dict& spec) {
            return std::make_unique<System>(system::SystemSpec::from_json(to_json(spec, "")));
        }), py::arg("spec"))
        .def_property_readonly("spec", [](const System& s) { return from_json(s.spec().to_json()); })
        .def_property_readonly("now_us", [](const System& s) { return s.now().as_us(); })
        .def_property_readonly("now_ps", [](const System& s) { return s.now().ps(); })
        .def_property_readonly("node_count", &System::node_count)
        .def("nic", &System::nic, py::arg("node"), py::return_value_policy::reference_internal)
        .def_property_readonly("system_name", [](const System& s) { return s.model().name(); })
        .def_property_readonly("has_embedded_nics", &System::has_embedded_nics)
        .def("host_memory", [](System& s, size_t node) { return HostMemoryRef{&s.host_memory(node), &s}; },
             py::arg("node"), py::keep_alive<0, 1>())
        .def("parameters", [](const System& s) { return parameter_list(s.preset()); })
        .def("run_until_ps", [](System& s, int64_t until_ps, py::object observer, double interval_us) {
            return run(s, Time::ps(until_ps), std::move(observer), interval_us);
        }, py::arg("until_ps"), py::arg("observer") = py::none(), py::arg("interval_us") = 100.0)
        .def_property_readonly("events_fired", [](System& s) { return s.kernel().events_fired(); })
        .def("fault_report", [](const System& s, size_t node) -> py::object {
            if (node >= s.node_count()) throw py::index_error("node " + std::to_string(node) + " (system has " + std::to_string(s.node_count()) + " nodes)");
            if (!s.faulted(node)) return py::none();
            return text(s.fault_report(node));
        }, py::arg("node"))
        .def("dead", &System::dead, py::arg("node"))
        .def("dead_reason", [](const System& s, size_t node) -> py::object {
            if (!s.dead(node)) return py::none();
            return py::str(s.dead_reason(node));
        }, py::arg("node"))
        .def("host_cpu_times", [](System& s, size_t node) {
            host::CpuTimes t = s.host_cpu(node).times();
            py::dict d;
            d["elapsed_us"] = t.elapsed.as_us();
            d["user_us"] = t.user.as_us();
            d["system_us"] = t.system.as_us();
            d["interrupt_us"] = t.interrupt.as_us();
            d["idle_us"] = t.idle().as_us();
            d["interrupts"] = t.interrupts;
            return d;
        }, py::arg("node"))
        .def("start_capture", [](System& s, const std::string& path, const std::vector<uint32_t>& nodes,
                                 const std::vector<uint32_t>& links) {
            s.start_capture({path, nodes, links});
        }, py::arg("path"), py::arg("nodes"), py::arg("links"))
        .def("stop_capture", &System::stop_capture)
        .def("flush_capture", [](System& s) {
            if (s.capture()) s.capture()->flush();
        })
        .def("capture_status", [](System& s) -> py::object {
            const net::Capture* c = s.capture();
            if (!c) return py::none();
            py::dict d;
            d["path"] = c->path();
            d["packets"] = c->packets();
            d["interfaces"] = c->interfaces();
            return d;
        })
        .def("links", [](System& s) {
            // What each LinkId joins, in id order (what a capture's links= take).
            std::vector<std::string> out;
            net::Network* n = s.network();
            if (!n) return out;
            const system::Terminals t = s.terminals();
            const auto name = [t](net::NodeId id) { return t.name(id); };
            for (net::LinkId l = 0; l < n->links().size(); ++l) out.push_back(net::Capture::link_description(*n, l, name));
            return out;
        })
        .def("network_stats", [](System& s) -> py::object {
            net::Network* n = s.network();
            if (!n) return py::none();
            const net::NetworkStats& st = n->stats();
            py::dict d;
            d["packets_injected"] = st.packets_injected;
            d["bytes_injected"] = st.bytes_injected;
            d["packets_delivered"] = st.packets_delivered;
            d["bytes_delivered"] = st.bytes_delivered;
            d["retries"] = st.retries;
            d["corrupted_delivered"] = st.corrupted_delivered;
            d["mean_latency_ns"] = st.latency_ns.mean();
            d["max_latency_ns"] = st.latency_ns.max();
            return d;
        });

    m.def("preset_names", &system::Preset::names);
    // The registry of systems: what each offers, for the Python API, the CLI and the GUI.
    m.def("systems", [] {
        py::list out;
        for (const system::SystemModel* model : system::system_models()) {
            py::dict d;
            d["name"] = model->name();
            d["summary"] = model->summary();
            d["nic_family"] = model->nic_family();
            d["default_preset"] = model->default_preset();
            d["default_firmware"] = model->default_firmware(2);  // a pair's (default_firmware gives any size's)
            py::list presets;
            for (const auto& name : system::Preset::names())
                if (system::Preset::named(name).system() == model->name()) presets.append(name);
            d["presets"] = presets;
            py::list transports;
            for (const auto& t : model->transports()) {
                py::dict td;
                td["name"] = t.name;
                td["summary"] = t.summary;
                td["ops"] = t.ops;
                td["max_message"] = t.max_message;
                transports.append(td);
            }
            d["transports"] = transports;
            out.append(d);
        }
        return out;
    });
    m.attr("MAX_NODES") = system::SystemSpec::kMaxNodes;
    // The image a spec of `nodes` nodes of system `name` gets when it names none ("" for none).
    m.def("default_firmware", [](const std::string& name, uint32_t nodes) {
        return system::system_model(name).default_firmware(nodes);
    });
    // A topology on one line (net/topology_text.hpp), as the command line and the GUI take it.
    m.def("topology_from_text", [](const std::string& text) {
        try {
            return from_json(net::topology_from_text(text));
        } catch (const net::TopologyConfigError& e) {
            throw system::ConfigError(e.key_path(), e.problem());
        }
    }, py::arg("text"));
    m.def("topology_text", [](const py::handle& description) { return net::topology_text(to_json(description, "topology")); },
          py::arg("description"));
    m.def("preset_info", [](const std::string& name) {
        const system::Preset p = system::Preset::named(name);
        py::dict d;
        d["name"] = p.name();
        d["system"] = p.system();
        d["description"] = p.description();
        d["parts"] = from_json(p.parts());
        d["parameters"] = parameter_list(p);
        return d;
    }, py::arg("name"));
    m.def("parts", [] {
        py::list out;
        for (const auto& part : system::Preset::parts_available()) out.append(from_json(part));
        return out;
    });
    m.def("published", [](const std::string& name) {
        system::system_model(name);  // ConfigError for an unknown system
        return from_json(system::published(name));
    }, py::arg("system"));
}

}  // namespace niclab::bindings
