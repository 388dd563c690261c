#pragma once
// A list of node numbers per node (the kernel's neighbours and two-hop nodes), all in one
// array with each node's start beside it (compressed rows). The kernel reads one node's
// list at every core run; kept as a vector per node, each list was an allocation of its
// own somewhere in the heap, and on a 2,048-node halo reading it missed the host's
// caches often enough to make the neighbour bound a twentieth of the wall time.
#include <cstdint>
#include <span>
#include <vector>

namespace niclab::sim {

class NodeLists {
public:
    NodeLists() = default;
    explicit NodeLists(const std::vector<std::vector<uint32_t>>& lists) {
        starts_.reserve(lists.size() + 1);
        starts_.push_back(0);
        for (const auto& list : lists) {
            nodes_.insert(nodes_.end(), list.begin(), list.end());
            starts_.push_back(uint32_t(nodes_.size()));
        }
        size_ = lists.size();
    }
    // Lists, one per node; none when no lists were given. (Kept apart: the kernel asks
    // empty() at every event and core run.)
    size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    std::span<const uint32_t> operator[](size_t n) const {
        return {nodes_.data() + starts_[n], nodes_.data() + starts_[n + 1]};
    }
    // As they were given.
    std::vector<std::vector<uint32_t>> vectors() const {
        std::vector<std::vector<uint32_t>> out;
        for (size_t n = 0; n < size(); ++n) out.emplace_back((*this)[n].begin(), (*this)[n].end());
        return out;
    }

private:
    std::vector<uint32_t> nodes_;   // every list, one after another
    std::vector<uint32_t> starts_;  // list n is nodes_[starts_[n], starts_[n + 1])
    size_t size_ = 0;
};

}  // namespace niclab::sim
