// The T9000's memory port, its cache of message buffers and the cycles the VCP steals
// from the CPU (memory_system.hpp).
#include "niclab/systems/t9000/memory_system.hpp"

#include <algorithm>

#include "niclab/systems/t9000/vcp.hpp"

namespace niclab::t9000 {

namespace {
constexpr uint64_t kWordBytes = 8;  // the 64-bit memory interface (seed 003 L81)
uint64_t words(uint64_t bytes) { return (bytes + kWordBytes - 1) / kWordBytes; }
}  // namespace

MemorySystem::MemorySystem(const MemoryParams& params) : params_(params) {
    if (params_.cache_bytes == 0) throw T9000Error("the T9000's cache has no bytes");
    if (params_.cpu_memory_percent > 100)
        throw T9000Error("the computing process accesses memory in at most 100 % of its cycles, not " +
                         std::to_string(params_.cpu_memory_percent));
}

Time MemorySystem::vcp_access(Time earliest, uint64_t buffer, uint64_t offset, uint64_t bytes) {
    if (bytes == 0) return earliest;
    if (params_.external_data) {
        // Only a buffer's first touch of new bytes allocates (a map node per buffer).
        uint64_t& extent = extent_[buffer];
        if (offset + bytes > extent) {
            footprint_ += offset + bytes - extent;
            extent = offset + bytes;
        }
    }
    const bool external = spilling();
    const uint64_t n = words(bytes);
    const Time work = params_.cycle * int64_t(n * (external ? params_.external_word_cycles : params_.internal_word_cycles));
    const Time start = std::max(earliest, free_at_);
    free_at_ = start + work;
    stats_.vcp_words += n;
    stats_.port_busy += work;
    unstolen_ += work;
    if (external) {
        stats_.vcp_external_words += n;
        // Each byte brought into the cache replaces a random one: working_set / cache of
        // them were the computing process's, which cannot lose more than it has.
        const uint64_t cap = uint64_t(params_.working_set_bytes) * params_.cache_bytes;
        evicted_scaled_ = std::min(cap, evicted_scaled_ + bytes * params_.working_set_bytes);
    }
    return free_at_;
}

Time MemorySystem::cpu_stall() {
    const Time stolen = Time::ps(unstolen_.ps() * int64_t(params_.cpu_memory_percent) / 100);
    unstolen_ = Time{};
    const uint64_t refetch = evicted_scaled_ / params_.cache_bytes;
    evicted_scaled_ -= refetch * params_.cache_bytes;
    const Time fetch = params_.cycle * int64_t(words(refetch) * params_.external_word_cycles);
    stats_.refetched_bytes += refetch;
    stats_.cpu_stalled += stolen + fetch;
    return stolen + fetch;
}

}  // namespace niclab::t9000
