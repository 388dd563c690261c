#pragma once
// Message-size schedules of the benchmarks researchers compare against.
//
// NetPIPE (Snell et al., used by seed 001 §5.2): base sizes grow by an increment that
// doubles every second step (1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, ...: powers of two
// and the points half-way between them), and once the increment exceeds the
// perturbation + 1 each base size is also tested `perturbation` bytes below and above
// (13, 16, 19, 21, 24, 27, ...), which exposes alignment and packetization effects.
// OSU micro-benchmarks: 0 (latency only), then every power of two.
#include <cstdint>
#include <vector>

namespace niclab::exp {

// Sizes in bytes from `start` up to `max` (inclusive), in test order.
std::vector<uint64_t> netpipe_sizes(uint64_t max, uint64_t start = 1, uint64_t perturbation = 3);
// 0 (when `with_zero`), 1, 2, 4, ... up to `max`.
std::vector<uint64_t> osu_sizes(uint64_t max, bool with_zero = true);

}  // namespace niclab::exp
