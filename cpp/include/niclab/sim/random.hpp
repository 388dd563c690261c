#pragma once
// Seeded randomness. Each component draws from its own stream derived from the run
// seed and the component's name, so adding a component does not perturb the others.
// The generator (xoshiro256**) and the bounded draws are written out here because
// std:: distributions differ between standard libraries; results must be bit-for-bit
// reproducible everywhere.
#include <cstdint>
#include <string_view>

namespace niclab::sim {

class Random {
public:
    explicit Random(uint64_t seed = 0, std::string_view stream = {});

    uint64_t next_u64();
    // Uniform in [0, bound), bound > 0 (Lemire's nearly-divisionless method, unbiased).
    uint64_t below(uint64_t bound);
    // Uniform in [0, 1) with 53 bits.
    double uniform();
    bool bernoulli(double p) { return uniform() < p; }

private:
    uint64_t s_[4];
};

}  // namespace niclab::sim
