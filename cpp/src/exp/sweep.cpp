#include "niclab/exp/sweep.hpp"

#include <algorithm>

#include "niclab/exp/schedule.hpp"

namespace niclab::exp {

unsigned SweepPlan::repeats(uint64_t size) const {
    if (repeats_fixed) return repeats_fixed;
    const uint64_t by_bytes = repeat_bytes / std::max<uint64_t>(size, 1);
    return unsigned(std::clamp<uint64_t>(by_bytes, min_repeats, max_repeats));
}

SweepPlan SweepPlan::from(Options& o, uint64_t default_max, unsigned default_min_repeats, unsigned default_max_repeats) {
    SweepPlan p;
    const std::string schedule = o.text("schedule", "netpipe", {"netpipe", "osu"});
    p.sizes = o.unsigned_list("sizes");
    const uint64_t max = o.unsigned_int("max_size", default_max);
    const uint64_t min = o.unsigned_int("min_size", schedule == "osu" ? 0 : 1);
    const uint64_t perturbation = o.unsigned_int("perturbation", 3);
    if (p.sizes.empty()) {
        auto all = schedule == "osu" ? osu_sizes(max) : netpipe_sizes(max, std::max<uint64_t>(min, 1), perturbation);
        for (uint64_t n : all)
            if (n >= min) p.sizes.push_back(n);
    }
    if (p.sizes.empty())
        throw ExperimentError("no message sizes: min_size " + std::to_string(min) + " B is above max_size " + std::to_string(max) + " B");
    // Bounds far above any benchmark's (NetPIPE and OSU time tens to thousands of
    // transfers per size) and below what would run for hours or overflow a count.
    constexpr uint64_t kMaxWarmup = 10'000, kMaxRepeats = 1'000'000;
    p.warmup = unsigned(o.unsigned_int("warmup", 1, kMaxWarmup));
    p.repeats_fixed = unsigned(o.unsigned_int("repeats", 0, kMaxRepeats));
    p.min_repeats = unsigned(std::max<uint64_t>(1, o.unsigned_int("min_repeats", default_min_repeats, kMaxRepeats)));
    p.max_repeats =
        unsigned(std::max<uint64_t>(p.min_repeats, o.unsigned_int("max_repeats", default_max_repeats, kMaxRepeats)));
    p.repeat_bytes = o.unsigned_int("repeat_bytes", 256 * 1024);
    return p;
}

}  // namespace niclab::exp
