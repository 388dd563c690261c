#include "niclab/msg/payload_pattern.hpp"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstring>
#include <vector>

#include "niclab/msg/transport.hpp"

namespace niclab::msg {

namespace {

constexpr size_t kChunk = 64 * 1024;

// splitmix64's steps on one word, or on each lane of a vector of them (the compiler's
// vector types take the same operators, lane by lane). In place: a vector passed or
// returned by value would change the ABI where the caller has no AVX-512.
template <class Word>
[[gnu::always_inline]] inline void splitmix64_steps(Word& x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    x ^= x >> 31;
}

uint64_t splitmix64(uint64_t x) {
    splitmix64_steps(x);
    return x;
}

// Scratch for patterns and checks: these run inside host-process fibers, whose stacks
// are small, so the chunks live off the stack (allocated once per thread).
std::span<uint8_t> scratch(int which) {
    static thread_local std::vector<uint8_t> buffers[2] = {std::vector<uint8_t>(kChunk), std::vector<uint8_t>(kChunk)};
    return buffers[which];
}

}  // namespace

uint64_t pattern_key(uint64_t seed, uint32_t from, uint64_t bytes) {
    return splitmix64(seed ^ (uint64_t(from) << 40) ^ splitmix64(bytes));
}

namespace {

#if defined(__x86_64__)
// Eight words at a time, where the host has AVX-512 (F and DQ, for the 64-bit
// multiply): the same words as one at a time, about 5x faster (every message is made
// and checked here: the pattern was 6 % of the 1 B-8 MB sweep's host time). Whole
// 64-byte groups only; returns the bytes done.
using Words = uint64_t __attribute__((vector_size(64)));  // eight lanes, the compiler's vectors

__attribute__((target("avx512f,avx512dq"))) size_t pattern_words_avx512(uint64_t key, uint64_t first,
                                                                        std::span<uint8_t> out) {
    const Words lanes = {0, 1, 2, 3, 4, 5, 6, 7};
    size_t i = 0;
    for (; i + 64 <= out.size(); i += 64) {
        // Lane l is word ((first + i) >> 3) + l, which is (first + i + 8 l) >> 3.
        Words x = key ^ (((first + i) >> 3) + lanes);
        splitmix64_steps(x);
        std::memcpy(out.data() + i, &x, 64);  // lanes in order, each little-endian
    }
    return i;
}

bool host_has_avx512() {
    static const bool yes = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq");
    return yes;
}
#endif

}  // namespace

// One 64-bit word of the generator gives eight bytes, least significant first; the
// word depends on the position. (Every message's bytes are made and checked here, so
// whole words are stored at once where the host is little-endian, eight of them where
// it has AVX-512.)
void pattern_chunk(uint64_t key, uint64_t first, std::span<uint8_t> out) {
    size_t i = 0;
#if defined(__x86_64__)
    if (host_has_avx512()) i = pattern_words_avx512(key, first, out);
#endif
    if constexpr (std::endian::native == std::endian::little)
        for (; i + 8 <= out.size(); i += 8) {
            const uint64_t word = splitmix64(key ^ ((first + i) >> 3));
            std::memcpy(out.data() + i, &word, 8);
        }
    for (; i < out.size(); i += 8) {
        const uint64_t word = splitmix64(key ^ ((first + i) >> 3));
        const size_t n = std::min<size_t>(8, out.size() - i);
        for (size_t b = 0; b < n; ++b) out[i + b] = uint8_t(word >> (8 * b));
    }
}

void fill_pattern(host::HostMemory& memory, uint64_t addr, uint64_t bytes, uint64_t key) {
    auto chunk = scratch(0);
    for (uint64_t done = 0; done < bytes; done += kChunk) {
        const size_t n = size_t(std::min<uint64_t>(kChunk, bytes - done));
        pattern_chunk(key, done, chunk.first(n));
        memory.write(addr + done, chunk.first(n));
    }
}

void check_pattern(const host::HostMemory& memory, uint64_t addr, uint64_t bytes, uint64_t key, uint32_t node,
                   uint32_t peer, const std::string& what, uint64_t first) {
    auto got = scratch(0), want = scratch(1);
    for (uint64_t done = 0; done < bytes; done += kChunk) {
        const size_t n = size_t(std::min<uint64_t>(kChunk, bytes - done));
        memory.read(addr + done, got.first(n));
        pattern_chunk(key, first + done, want.first(n));
        if (std::memcmp(got.data(), want.data(), n) == 0) continue;
        size_t i = 0;
        while (got[i] == want[i]) ++i;
        char detail[96];
        std::snprintf(detail, sizeof detail, " at offset %llu: expected 0x%02x, found 0x%02x",
                      static_cast<unsigned long long>(first + done + i), want[i], got[i]);
        throw TransportError("node " + std::to_string(node) + " received wrong data in a " + std::to_string(bytes) +
                             "-byte " + what + " from node " + std::to_string(peer) + detail);
    }
}

}  // namespace niclab::msg
