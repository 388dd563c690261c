#include "niclab/exp/schedule.hpp"

namespace niclab::exp {

std::vector<uint64_t> netpipe_sizes(uint64_t max, uint64_t start, uint64_t perturbation) {
    // NetPIPE 3.x's loop: `inc` doubles on every odd step after the third, and the
    // perturbed neighbours are tested only once the step between bases is wider than them.
    std::vector<uint64_t> out;
    uint64_t inc = 1;
    for (uint64_t len = start < 1 ? 1 : start, step = 0; len <= max; len += inc, ++step) {
        if (step > 2 && step % 2 == 1) inc *= 2;
        const bool perturb = perturbation > 0 && inc > perturbation + 1;
        for (int64_t k = perturb ? -1 : 0; k <= (perturb ? 1 : 0); ++k) {
            const uint64_t n = len + uint64_t(k * int64_t(perturbation));
            if (n >= 1 && n <= max && (out.empty() || n > out.back())) out.push_back(n);
        }
    }
    return out;
}

std::vector<uint64_t> osu_sizes(uint64_t max, bool with_zero) {
    std::vector<uint64_t> out;
    if (with_zero) out.push_back(0);
    for (uint64_t n = 1; n <= max; n *= 2) out.push_back(n);
    return out;
}

}  // namespace niclab::exp
