#pragma once
// A node's counters, as an experiment's observations report them (issue 18: "traces
// and counters from every run"): named event counts kept by the parts of the node —
// its embedded core and caches, its NIC's devices and DMA engines, its host CPU, its
// network cables. Names are "<part>.<what>" (core.instructions, nic.host_window_reads,
// host.interrupts_taken, net.tx_link_retries). Every count starts when the system is
// built, so boot and warm-up are in them.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace niclab::system {

class Counters {
public:
    void add(std::string name, uint64_t value) { items_.emplace_back(std::move(name), value); }
    const std::vector<std::pair<std::string, uint64_t>>& items() const { return items_; }
    std::optional<uint64_t> find(const std::string& name) const {
        for (const auto& [n, v] : items_)
            if (n == name) return v;
        return std::nullopt;
    }
    // {"core.instructions": 123, ...}
    nlohmann::json to_json() const {
        nlohmann::json j = nlohmann::json::object();
        for (const auto& [n, v] : items_) j[n] = v;
        return j;
    }

private:
    std::vector<std::pair<std::string, uint64_t>> items_;
};

}  // namespace niclab::system
