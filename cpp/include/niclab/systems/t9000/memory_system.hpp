#pragma once
// The T9000's memory system as its VCP and CPU share it (seed 003 P1 §2.2, §2.7): on-chip
// memory (the 16 KB of on-chip RAM, split for the measurements into an 8 KB cache and
// 8 KB of internal memory, L81, L145, L158) and the external memory behind the
// programmable memory interface, whose per-word cost the seed does not give (it calls
// the interface poorly designed and clocked at 20 MHz against a 50 MHz design, L108).
//
// Why this shape: the seed names two effects, the VCP's rate when its data is in
// external memory (16.5 MB/s against 28 with four links, L108) and the CPU load of
// communication that rises above 10 KB messages "because of the 8 KB cache" (L158). Both
// need the VCP's data traffic to compete for something; the simplest thing that can
// show them is one memory port per node with a cost per 64-bit word (the 64-bit
// interface of L81), which
//  - the VCP uses for every data word it reads for a packet it sends or writes for one
//    it receives, pipelined with its own work on the packet (L83): the packet's work
//    ends when both are done; and
//  - the CPU's computing process loses cycles to: of every cycle the VCP holds the port
//    it loses the share in which it wanted memory itself (cycle stealing, the VCP first).
// Where the VCP's data lives is a per-run choice (t9000.external_data). Internal memory
// is on-chip and costs internal_word_cycles. External data goes through the 8 KB cache:
// while the message buffers the VCP has touched and the computing process's working set
// fit in it together, the buffers stay cached (the benchmarks reuse their buffers) and
// cost on-chip cycles; once they do not, every word streams through the external
// interface, and each byte brought into the cache evicts (random replacement) a share
// working_set / cache of the computing process's bytes, which it fetches again from
// external memory when it next runs.
#include <cstdint>
#include <map>

#include "niclab/sim/time.hpp"

namespace niclab::t9000 {

struct MemoryParams {
    Time cycle = Time::ns(50);
    uint32_t internal_word_cycles = 1;  // on-chip RAM or cache, per 64-bit word
    uint32_t external_word_cycles = 4;  // the programmable memory interface, per 64-bit word
    uint32_t cache_bytes = 8192;
    bool external_data = false;         // the VCP's message data in external memory
    uint32_t cpu_memory_percent = 50;   // the computing process's cycles that access memory
    uint32_t working_set_bytes = 2048;  // the computing process's data in the cache
};

struct MemoryStats {
    uint64_t vcp_words = 0;           // 64-bit words the VCP moved
    uint64_t vcp_external_words = 0;  // ... of them through the external interface
    Time port_busy;                   // port time the VCP held
    Time cpu_stalled;                 // computing time the CPU lost (stolen cycles and refetches)
    uint64_t refetched_bytes = 0;     // the computing process's bytes fetched again after eviction
};

class MemorySystem {
public:
    explicit MemorySystem(const MemoryParams& params);

    const MemoryParams& params() const { return params_; }
    const MemoryStats& stats() const { return stats_; }

    // The VCP moves `bytes` at `offset` of the message buffer at `buffer` (read for a
    // packet it sends or written for one it receives), starting no earlier than
    // `earliest`; returns when the last word is through the port.
    Time vcp_access(Time earliest, uint64_t buffer, uint64_t offset, uint64_t bytes);
    // What a computation of the CPU loses to the memory system since the last call: the
    // share of the VCP's port time in which it wanted memory, and fetching again what the
    // VCP's traffic evicted from the cache.
    Time cpu_stall();
    // The message buffers and the working set no longer fit the cache together.
    bool spilling() const { return params_.external_data && footprint_ + params_.working_set_bytes > params_.cache_bytes; }

private:
    MemoryParams params_;
    MemoryStats stats_;
    Time free_at_;
    Time unstolen_;                   // VCP port time not yet charged to the CPU
    uint64_t evicted_scaled_ = 0;     // evicted working-set bytes x cache_bytes
    std::map<uint64_t, uint64_t> extent_;  // message buffer -> bytes of it touched
    uint64_t footprint_ = 0;          // sum of extent_
};

}  // namespace niclab::t9000
