// niclab._niclab.RawTrace (a trace::Trace), trace files, and Nic.trace(). The Python
// face (records as a NumPy array, exporters) is python/niclab/trace.py; decoding and
// the tracedump text are C++ (trace/decoder.hpp), so the CLI, Python and the GUI agree.
#include <cmath>
#include <optional>

#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include "bindings.hpp"
#include "system_guard.hpp"
#include "niclab/fw/build_id.hpp"
#include "niclab/nic/embedded_nic.hpp"
#include "niclab/trace/chrome_json.hpp"
#include "niclab/trace/decoder.hpp"
#include "niclab/nic/trace_ring.hpp"
#include "niclab/trace/trace_file.hpp"
#include "niclab/trace/trace_json.hpp"

namespace py = pybind11;
using niclab::trace::Trace;

namespace niclab::bindings {

namespace {

trace::ElfDecoding decode_optional(const Trace& t, const std::optional<std::filesystem::path>& elf, bool force) {
    if (elf) return trace::decode_with_elf(t, *elf, force);
    trace::ElfDecoding d;
    d.records = trace::decode(t, nullptr);
    return d;
}

double or_nan(const std::optional<double>& v) { return v ? *v : std::nan(""); }

// Column lists; trace.py turns them into one structured NumPy array.
py::dict columns(const trace::ElfDecoding& d) {
    const auto& r = d.records;
    py::list ts, time_ns, sim_time_ns, value, pc, function, offset, file, line, next, prev, raw_ts, raw_word;
    for (const auto& x : r) {
        ts.append(x.cycles);
        time_ns.append(x.time_ns);
        sim_time_ns.append(or_nan(x.sim_time_ns));
        value.append(x.value);
        pc.append(x.pc);
        function.append(text(x.function));
        offset.append(x.offset);
        file.append(text(x.file));
        line.append(x.line);
        next.append(or_nan(x.delta_next_ns));
        prev.append(or_nan(x.delta_prev_ns));
        raw_ts.append(x.raw_timestamp);
        raw_word.append(x.raw_word);
    }
    py::dict c;
    c["timestamp_cycles"] = ts;
    c["time_ns"] = time_ns;
    c["sim_time_ns"] = sim_time_ns;
    c["value"] = value;
    c["pc"] = pc;
    c["function"] = function;
    c["offset"] = offset;
    c["file"] = file;
    c["line"] = line;
    c["delta_ns"] = next;
    c["delta_prev_ns"] = prev;
    c["raw_timestamp"] = raw_ts;
    c["raw_word"] = raw_word;
    c["unreliable"] = d.unreliable;
    c["elf_build_id"] = d.elf_build_id;
    return c;
}

py::object wrap(Trace t, const std::optional<std::filesystem::path>& elf) {
    py::object cls = py::module_::import("niclab.trace").attr("Trace");
    return cls(std::move(t), elf ? py::cast(elf->string()) : py::none());
}

}  // namespace

void bind_trace(py::module_& m) {
    py::class_<Trace>(m, "RawTrace")
        .def_property_readonly("node_id", [](const Trace& t) { return t.header.node_id; })
        .def_property_readonly("build_id", [](const Trace& t) { return t.header.build_id; })
        .def_property_readonly("clock_hz", [](const Trace& t) { return t.header.clock_hz; })
        .def_property_readonly("sram_cached_base", [](const Trace& t) { return t.header.sram_cached_base; })
        .def_property_readonly("total_count", [](const Trace& t) { return t.header.total_count; })
        .def_property_readonly("flags", [](const Trace& t) { return t.header.flags; })
        .def_property_readonly("first_cycles", [](const Trace& t) { return t.header.first_cycles; })
        .def_property_readonly("epoch_ps", [](const Trace& t) -> std::optional<int64_t> {
            if (!t.has_epoch()) return std::nullopt;
            return t.header.epoch_ps;
        }, "Global simulated time (ps) at which the core's mcycle was 0; None for a trace without a time axis.")
        .def_property_readonly("lost", &Trace::lost)
        .def("__len__", [](const Trace& t) { return t.records.size(); })
        .def("__eq__", [](const Trace& a, const Trace& b) { return a == b; })
        .def("raw_records", [](const Trace& t) {
            std::vector<std::pair<uint32_t, uint32_t>> out;
            for (const auto& r : t.records) out.emplace_back(r.timestamp, r.word);
            return out;
        })
        .def("save", [](const Trace& t, const std::filesystem::path& p) { trace::save_trace(t, p); }, py::arg("path"))
        .def("to_bytes", [](const Trace& t) {
            auto b = trace::to_bytes(t);
            return py::bytes(reinterpret_cast<const char*>(b.data()), b.size());
        })
        .def("columns", [](const Trace& t, std::optional<std::filesystem::path> elf, bool force) {
            return columns(decode_optional(t, elf, force));
        }, py::arg("elf") = py::none(), py::arg("force") = false)
        .def("format", [](const Trace& t, std::optional<std::filesystem::path> elf, bool force, bool source,
                          std::optional<std::string> function, std::optional<int> value, std::optional<size_t> last) {
            trace::FormatOptions o{source, std::move(function), value, last};
            return text(trace::format_text(decode_optional(t, elf, force).records, o));
        }, py::arg("elf") = py::none(), py::arg("force") = false, py::arg("source") = false,
           py::arg("function") = py::none(), py::arg("value") = py::none(), py::arg("last") = py::none());

    // Chrome trace-event JSON text of several nodes' traces, each (trace, elf, force):
    // the core's writer (trace/chrome_json.hpp), as the GUI's export uses.
    m.def("chrome_trace", [](const std::vector<std::tuple<const Trace*, std::optional<std::filesystem::path>, bool>>& traces) {
        std::vector<std::vector<trace::DecodedRecord>> decoded;
        decoded.reserve(traces.size());
        std::vector<trace::ChromeTrack> tracks;
        for (const auto& [t, elf, force] : traces) {
            decoded.push_back(decode_optional(*t, elf, force).records);
            tracks.push_back({t->header.node_id, t->has_epoch(), &decoded.back()});
        }
        return trace::chrome_trace(tracks).dump();
    }, py::arg("traces"));
    m.def("load_trace", [](const std::filesystem::path& p) { return trace::load_trace(p); }, py::arg("path"));
    m.def("trace_from_bytes", [](const py::bytes& b) {
        std::string_view v = b;
        return trace::from_bytes({reinterpret_cast<const uint8_t*>(v.data()), v.size()});
    }, py::arg("data"));
    m.def("trace_from_json", [](const py::handle& d) { return trace::from_json(to_json(d, "trace")); }, py::arg("data"));
    m.def("elf_build_id", [](const std::filesystem::path& p) { return fw::elf_build_id(p); },
          py::arg("path"));

    // Nic.trace(): read the ring now, through the debug back door (no simulated time).
    auto nic = py::reinterpret_borrow<py::class_<nic::EmbeddedNic>>(m.attr("Nic"));
    nic.def("trace", guarded("Nic.trace", [](const nic::EmbeddedNic& n) {
        Trace t = nic::read_trace(n);
        return wrap(std::move(t), n.image()->path());
    }), "The firmware's trace ring, read now without costing the firmware simulated time "
       "(a niclab.trace.Trace decoded with the loaded ELF's symbols).");
}

}  // namespace niclab::bindings
