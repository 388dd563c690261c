#pragma once
// A node's counters, as an experiment's observations report them (issue 18: "traces
// and counters from every run"): named event counts kept by the parts of the node —
// its embedded core and caches, its NIC's devices and DMA engines, its host CPU, its
// network cables. Names are "<part>.<what>" (core.instructions, nic.host_window_reads,
// host.interrupts_taken, net.tx_link_retries). Every count starts when the system is
// built, so boot and warm-up are in them.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace niclab::system {

class Counters {
public:
    // Counters that keep their values and not their names, only a hash of the names in
    // order (layout()): a reader of every node many times over (the GUI's snapshot of
    // Red Storm, 10,368 nodes of about 40 counters, a few times a second) reads the names
    // once per layout and the values of each node, without a string per counter.
    static Counters values_only() {
        Counters c;
        c.values_only_ = true;
        return c;
    }

    void add(std::string_view name, uint64_t value) {
        // Each name's hash (a word at a time; a byte at a time was a tenth of a snapshot),
        // folded in order.
        layout_ = (layout_ ^ std::hash<std::string_view>{}(name)) * kFoldPrime;
        if (values_only_) values_.push_back(value);
        else items_.emplace_back(std::string(name), value);
    }
    // Empty for values_only() counters, as find() and to_json() see nothing of them.
    const std::vector<std::pair<std::string, uint64_t>>& items() const { return items_; }
    // Those of values_only() counters, in the order added.
    const std::vector<uint64_t>& values() const { return values_; }
    // The same for two nodes whose counters have the same names in the same order.
    uint64_t layout() const { return layout_; }
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
    static constexpr uint64_t kFoldPrime = 0x100000001b3ull;  // FNV's 64-bit prime
    std::vector<std::pair<std::string, uint64_t>> items_;
    std::vector<uint64_t> values_;
    uint64_t layout_ = 0xcbf29ce484222325ull;  // FNV's 64-bit offset basis
    bool values_only_ = false;
};

}  // namespace niclab::system
