// The multicast reassembly buffers' allocator (mc_fragments.hpp).
#include <algorithm>
#include <iterator>

#include "niclab/sim/error.hpp"
#include "niclab/systems/grim/mc_fragments.hpp"

namespace niclab::grim {

uint64_t ReassemblyArena::allocate(uint64_t bytes) {
    // Whole 64-byte lines: buffers never share a cache line (assumption: a malloc's
    // alignment; nothing here is timed by address).
    const uint64_t n = std::max<uint64_t>(64, (bytes + 63) & ~uint64_t(63));
    for (auto it = free_.begin(); it != free_.end(); ++it) {
        if (it->second < n) continue;
        const uint64_t at = it->first, left = it->second - n;
        free_.erase(it);
        if (left) free_[at + n] = left;
        used_[at] = n;
        return at;
    }
    return 0;
}

void ReassemblyArena::release(uint64_t addr) {
    const auto u = used_.find(addr);
    if (u == used_.end()) throw Error("multicast reassembly: no buffer at " + std::to_string(addr) + " to free");
    uint64_t at = addr, n = u->second;
    used_.erase(u);
    auto next = free_.lower_bound(at);
    if (next != free_.end() && at + n == next->first) {
        n += next->second;
        next = free_.erase(next);
    }
    if (next != free_.begin()) {
        auto prev = std::prev(next);
        if (prev->first + prev->second == at) {
            prev->second += n;
            return;
        }
    }
    free_[at] = n;
}

}  // namespace niclab::grim
