#include "niclab/sim/random.hpp"

#include <bit>

namespace niclab::sim {

namespace {
uint64_t splitmix64(uint64_t& x) {
    uint64_t z = (x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
uint64_t fnv1a(std::string_view s) {
    uint64_t h = 0xCBF29CE484222325ull;
    for (unsigned char c : s) { h ^= c; h *= 0x100000001B3ull; }
    return h;
}
}  // namespace

Random::Random(uint64_t seed, std::string_view stream) {
    uint64_t x = seed ^ fnv1a(stream);
    for (auto& s : s_) s = splitmix64(x);
}

uint64_t Random::next_u64() {
    const uint64_t result = std::rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = std::rotl(s_[3], 45);
    return result;
}

uint64_t Random::below(uint64_t bound) {
    unsigned __int128 m = (unsigned __int128)next_u64() * bound;
    uint64_t low = uint64_t(m);
    if (low < bound) {
        uint64_t threshold = -bound % bound;
        while (low < threshold) {
            m = (unsigned __int128)next_u64() * bound;
            low = uint64_t(m);
        }
    }
    return uint64_t(m >> 64);
}

double Random::uniform() { return double(next_u64() >> 11) * 0x1.0p-53; }

}  // namespace niclab::sim
