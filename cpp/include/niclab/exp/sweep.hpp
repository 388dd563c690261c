#pragma once
// What a message-size sweep measures: the sizes (NetPIPE's or OSU's schedule, or a
// list), the untimed warm-up transfers and the timed repetitions per size. The
// simulation is deterministic, so repetitions only have to cover the cold start
// (caches, first-touch) and reach the steady state: fewer for large messages.
#include <cstdint>
#include <string>
#include <vector>

#include "niclab/exp/options.hpp"

namespace niclab::exp {

struct SweepPlan {
    std::vector<uint64_t> sizes;
    unsigned warmup = 1;
    unsigned repeats_fixed = 0;       // 0: from repeat_bytes
    unsigned min_repeats = 1, max_repeats = 20;
    uint64_t repeat_bytes = 256 * 1024;

    // Timed repetitions for a size: `repeats` if set, else about repeat_bytes of
    // payload, within [min_repeats, max_repeats].
    unsigned repeats(uint64_t size) const;

    // Options: "schedule" (netpipe | osu), "sizes" (a list, overrides the schedule),
    // "min_size", "max_size", "perturbation", "warmup", "repeats", "min_repeats",
    // "max_repeats", "repeat_bytes".
    static SweepPlan from(Options& o, uint64_t default_max, unsigned default_min_repeats, unsigned default_max_repeats);
};

}  // namespace niclab::exp
