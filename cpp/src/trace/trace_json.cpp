#include "niclab/trace/trace_json.hpp"

#include <limits>
#include <type_traits>

#include "niclab/trace/trace_file.hpp"

namespace niclab::trace {

nlohmann::json to_json(const Trace& t) {
    const TraceHeader& h = t.header;
    nlohmann::json records = nlohmann::json::array();
    for (const RawRecord& r : t.records) records.push_back({r.timestamp, r.word});
    return {{"node", h.node_id},          {"build_id", h.build_id},       {"clock_hz", h.clock_hz},
            {"sram_cached_base", h.sram_cached_base}, {"total_count", h.total_count}, {"flags", h.flags},
            {"first_cycles", h.first_cycles}, {"epoch_ps", h.epoch_ps},   {"period_ps", h.period_ps},
            {"records", std::move(records)}};
}

namespace {
// JSON from Python holds every integer as signed: a non-negative one is fine.
bool whole(const nlohmann::json& v, uint64_t max) {
    if (v.is_number_unsigned()) return v.get<uint64_t>() <= max;
    return v.is_number_integer() && v.get<int64_t>() >= 0 && uint64_t(v.get<int64_t>()) <= max;
}

template <typename T>
T field(const nlohmann::json& j, const char* key) {
    if (!j.contains(key)) throw TraceError(std::string("trace: missing key '") + key + "'");
    const nlohmann::json& v = j.at(key);
    if constexpr (std::is_same_v<T, std::string>) {
        if (!v.is_string()) throw TraceError(std::string("trace: '") + key + "' must be a string");
    } else if constexpr (std::is_signed_v<T>) {
        if (!v.is_number_integer()) throw TraceError(std::string("trace: '") + key + "' must be an integer");
    } else {
        if (!whole(v, std::numeric_limits<T>::max()))
            throw TraceError(std::string("trace: '") + key + "' must be a whole number from 0 to " +
                             std::to_string(std::numeric_limits<T>::max()));
    }
    return v.get<T>();
}
}  // namespace

Trace from_json(const nlohmann::json& j) {
    if (!j.is_object()) throw TraceError("trace: expected an object with the header fields and 'records'");
    Trace t;
    TraceHeader& h = t.header;
    h.node_id = field<uint32_t>(j, "node");
    h.build_id = field<std::string>(j, "build_id");
    h.clock_hz = field<uint64_t>(j, "clock_hz");
    h.sram_cached_base = field<uint32_t>(j, "sram_cached_base");
    h.total_count = field<uint64_t>(j, "total_count");
    h.flags = field<uint32_t>(j, "flags");
    h.first_cycles = field<uint64_t>(j, "first_cycles");
    h.epoch_ps = field<int64_t>(j, "epoch_ps");
    h.period_ps = field<uint64_t>(j, "period_ps");
    if (!j.contains("records") || !j["records"].is_array()) throw TraceError("trace: 'records' must be a list of [timestamp, word]");
    for (const auto& r : j["records"]) {
        if (!r.is_array() || r.size() != 2 || !whole(r[0], UINT32_MAX) || !whole(r[1], UINT32_MAX))
            throw TraceError("trace: record " + std::to_string(t.records.size()) + " is not a [timestamp, word] pair of 32-bit numbers");
        t.records.push_back({r[0].get<uint32_t>(), r[1].get<uint32_t>()});
    }
    // The file reader's checks, so a hand-edited JSON trace is refused as a file would be.
    try {
        return from_bytes(to_bytes(t));
    } catch (const TraceFormatError& e) {
        throw TraceError("trace: " + e.detail());
    }
}

}  // namespace niclab::trace
