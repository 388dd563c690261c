#include "niclab/msg/payload_pattern.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdio>
#include <cstring>

#include "niclab/msg/transport.hpp"

namespace niclab::msg {

namespace {

// splitmix64, for a message's key: the seed, the sender and the size well mixed.
uint64_t splitmix64(uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

// A position's word from key ^ index, on one word or on each lane of a vector of them
// (the compiler's vector types take the same operators, lane by lane; in place, as a
// vector passed or returned by value would change the ABI where the caller has no
// AVX-512): a multiply by an odd constant and a fold of the high half into the low, each
// invertible. So the words of a message's positions all differ, and a position's word
// differs from key to key (a message of another size, sender or seed left in the buffer).
// That is all a check needs; splitmix64 here, with its second multiply and three shifts,
// made making and checking the bytes cost about twice as much.
template <class Word>
[[gnu::always_inline]] inline void word_steps(Word& x) {
    x *= 0x9E3779B97F4A7C15ull;
    x ^= x >> 32;
}

uint64_t pattern_word(uint64_t key, uint64_t index) {
    uint64_t x = key ^ index;
    word_steps(x);
    return x;
}

}  // namespace

uint64_t pattern_key(uint64_t seed, uint32_t from, uint64_t bytes) {
    return splitmix64(seed ^ (uint64_t(from) << 40) ^ splitmix64(bytes));
}

namespace {

#if defined(__x86_64__)
// A vector of words at a time: the same words as one at a time (the compiler's
// vector types take word_steps' operators lane by lane). Every message is made and
// checked here: one word at a time the pattern was 6 % of the 1 B-8 MB sweep's host
// time. With AVX-512 (F and DQ, for the 64-bit multiply) eight lanes, about 5x faster;
// with AVX2 alone, which has no 64-bit multiply (the compiler builds it of 32-bit ones),
// four, about 2.2x. Whole vectors only; returns the bytes done.
using Words4 = uint64_t __attribute__((vector_size(32)));  // the compiler's vectors
using Words8 = uint64_t __attribute__((vector_size(64)));

template <class Words>
[[gnu::always_inline]] inline size_t pattern_words(uint64_t key, uint64_t first, std::span<uint8_t> out) {
    Words lanes{};
    for (size_t l = 0; l < sizeof(Words) / 8; ++l) lanes[l] = l;
    size_t i = 0;
    for (; i + sizeof(Words) <= out.size(); i += sizeof(Words)) {
        // Lane l is word ((first + i) >> 3) + l, which is (first + i + 8 l) >> 3.
        Words x = key ^ (((first + i) >> 3) + lanes);
        word_steps(x);
        std::memcpy(out.data() + i, &x, sizeof(Words));  // lanes in order, each little-endian
    }
    return i;
}

// How many bytes of `have`, in whole vectors, are known to be the pattern's: all of them,
// or none if any differs (the caller then looks for the byte a word at a time). The words
// are made as above and compared with the bytes where they lie, not stored first and
// compared after (a check read and wrote 64 KB of scratch, then compared it: a memcmp
// call, 3 % of a 1 B-8 MB sweep's host time). Their differences are gathered in one
// vector and looked at once at the end: a test per vector made the compiler store each
// one and compare it a word at a time (7.8 % of the sweep, more than the two passes).
template <class Words>
[[gnu::always_inline]] inline size_t matching_words(uint64_t key, uint64_t first, std::span<const uint8_t> have) {
    Words lanes{}, differ{};
    for (size_t l = 0; l < sizeof(Words) / 8; ++l) lanes[l] = l;
    size_t i = 0;
    for (; i + sizeof(Words) <= have.size(); i += sizeof(Words)) {
        Words x = key ^ (((first + i) >> 3) + lanes);
        word_steps(x);
        Words h;
        std::memcpy(&h, have.data() + i, sizeof(Words));
        differ |= x ^ h;
    }
    uint64_t any = 0;
    for (size_t l = 0; l < sizeof(Words) / 8; ++l) any |= differ[l];
    return any ? 0 : i;
}

__attribute__((target("avx512f,avx512dq"))) size_t pattern_words_avx512(uint64_t key, uint64_t first,
                                                                        std::span<uint8_t> out) {
    return pattern_words<Words8>(key, first, out);
}
__attribute__((target("avx2"))) size_t pattern_words_avx2(uint64_t key, uint64_t first, std::span<uint8_t> out) {
    return pattern_words<Words4>(key, first, out);
}
__attribute__((target("avx512f,avx512dq"))) size_t matching_words_avx512(uint64_t key, uint64_t first,
                                                                          std::span<const uint8_t> have) {
    return matching_words<Words8>(key, first, have);
}
__attribute__((target("avx2"))) size_t matching_words_avx2(uint64_t key, uint64_t first, std::span<const uint8_t> have) {
    return matching_words<Words4>(key, first, have);
}

// The widest of the two the host has (0: neither).
int host_vector_lanes() {
    static const int lanes = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") ? 8
                             : __builtin_cpu_supports("avx2")                                          ? 4
                                                                                                       : 0;
    return lanes;
}
#endif

}  // namespace

// One 64-bit word of the generator gives eight bytes, least significant first; the
// word depends on the position. (Every message's bytes are made and checked here, so
// whole words are stored at once where the host is little-endian, four or eight of them
// where it has AVX2 or AVX-512.)
void pattern_chunk(uint64_t key, uint64_t first, std::span<uint8_t> out) {
    size_t i = 0;
#if defined(__x86_64__)
    if (const int lanes = host_vector_lanes(); lanes == 8) i = pattern_words_avx512(key, first, out);
    else if (lanes == 4) i = pattern_words_avx2(key, first, out);
#endif
    if constexpr (std::endian::native == std::endian::little)
        for (; i + 8 <= out.size(); i += 8) {
            const uint64_t word = pattern_word(key, (first + i) >> 3);
            std::memcpy(out.data() + i, &word, 8);
        }
    for (; i < out.size(); i += 8) {
        const uint64_t word = pattern_word(key, (first + i) >> 3);
        const size_t n = std::min<size_t>(8, out.size() - i);
        for (size_t b = 0; b < n; ++b) out[i + b] = uint8_t(word >> (8 * b));
    }
}

namespace {

// Byte p of the pattern: byte p % 8 of its word.
uint8_t pattern_byte(uint64_t key, uint64_t p) { return uint8_t(pattern_word(key, p >> 3) >> (8 * (p & 7))); }

// pattern_chunk from any byte: a page's piece of a buffer may start inside a word.
void pattern_bytes(uint64_t key, uint64_t first, std::span<uint8_t> out) {
    const size_t head = std::min<size_t>((8 - first % 8) % 8, out.size());
    for (size_t b = 0; b < head; ++b) out[b] = pattern_byte(key, first + b);
    pattern_chunk(key, first + head, out.subspan(head));
}

// The offset of the first byte of `have` that is not byte first + i of the pattern, or
// have.size() if none is not.
size_t pattern_mismatch(uint64_t key, uint64_t first, std::span<const uint8_t> have) {
    size_t i = 0;
    for (; i < have.size() && (first + i) % 8; ++i)
        if (have[i] != pattern_byte(key, first + i)) return i;
#if defined(__x86_64__)
    if (const int lanes = host_vector_lanes(); lanes == 8) i += matching_words_avx512(key, first + i, have.subspan(i));
    else if (lanes == 4) i += matching_words_avx2(key, first + i, have.subspan(i));
#endif
    if constexpr (std::endian::native == std::endian::little)
        for (; i + 8 <= have.size(); i += 8) {
            const uint64_t word = pattern_word(key, (first + i) >> 3);
            if (std::memcmp(have.data() + i, &word, 8) != 0) break;
        }
    for (; i < have.size(); ++i)  // the rest, or the word that differs
        if (have[i] != pattern_byte(key, first + i)) return i;
    return have.size();
}

}  // namespace

void fill_pattern(host::HostMemory& memory, uint64_t addr, uint64_t bytes, uint64_t key) {
    memory.write_pages(addr, bytes, [&](uint8_t* at, uint64_t done, uint64_t n) { pattern_bytes(key, done, {at, n}); });
}

void check_pattern(const host::HostMemory& memory, uint64_t addr, uint64_t bytes, uint64_t key, uint32_t node,
                   uint32_t peer, std::string_view what, uint64_t first) {
    static constexpr std::array<uint8_t, host::HostMemory::kPageBytes> kUntouched{};  // a page never touched reads so
    uint64_t at = bytes;
    memory.read_pages(addr, bytes, [&](const uint8_t* have, uint64_t done, uint64_t n) {
        const size_t i = pattern_mismatch(key, first + done, {have ? have : kUntouched.data(), n});
        if (i < n) at = done + i;
        return i == n;
    });
    if (at == bytes) return;
    uint8_t got;
    memory.read(addr + at, {&got, 1});
    char detail[96];
    std::snprintf(detail, sizeof detail, " at offset %llu: expected 0x%02x, found 0x%02x",
                  static_cast<unsigned long long>(first + at), pattern_byte(key, first + at), got);
    throw TransportError("node " + std::to_string(node) + " received wrong data in a " + std::to_string(bytes) + "-byte " +
                         std::string(what) + " from node " + std::to_string(peer) + detail);
}

}  // namespace niclab::msg
