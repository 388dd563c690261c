#pragma once
// A std::map that keeps the nodes of the entries it erases and gives them to the entries
// it adds next (C++17 node handles: extract, then insert), so a map of things in flight -
// a Portals library's operations, each added when a message starts and erased when it
// ends - allocates nothing once it has held its most entries at once. A plain std::map
// allocates a node at every insertion and frees one at every erasure: on every message.
#include <cstddef>
#include <iterator>
#include <map>
#include <utility>
#include <vector>

namespace niclab::sim {

template <typename Key, typename Value>
class RecyclingMap {
    using Map = std::map<Key, Value>;

public:
    using iterator = typename Map::iterator;

    iterator begin() { return map_.begin(); }
    iterator end() { return map_.end(); }
    iterator find(const Key& key) { return map_.find(key); }
    std::size_t count(const Key& key) const { return map_.count(key); }
    std::size_t size() const { return map_.size(); }

    // Adds `value` under `key` unless the key is taken (as std::map::emplace does).
    void emplace(const Key& key, Value value) {
        if (spare_.empty()) {
            map_.emplace(key, std::move(value));
            return;
        }
        typename Map::node_type node = std::move(spare_.back());
        spare_.pop_back();
        node.key() = key;
        node.mapped() = std::move(value);
        if (auto result = map_.insert(std::move(node)); !result.inserted) spare_.push_back(std::move(result.node));
    }
    // Erases the entry and keeps its node; returns the entry after it.
    iterator erase(iterator it) {
        iterator next = std::next(it);
        spare_.push_back(map_.extract(it));
        spare_.back().mapped() = Value{};  // what the entry held goes now, not when the node is reused
        return next;
    }
    std::size_t erase(const Key& key) {
        iterator it = map_.find(key);
        if (it == map_.end()) return 0;
        erase(it);
        return 1;
    }

private:
    Map map_;
    std::vector<typename Map::node_type> spare_;
};

}  // namespace niclab::sim
