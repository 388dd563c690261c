#pragma once
// Two StarT-X nodes back to back (the NIU tests' Pair) with JAM, JAM RPC and the RDMA
// side channel on each, and helpers to run transports between them.
#include <memory>
#include <vector>

#include "niclab/systems/startx/jam.hpp"
#include "niclab/systems/startx/jam_rpc.hpp"
#include "niclab/systems/startx/transport.hpp"
#include "startx_test_support.hpp"

namespace niclab::startx::test {

// A host buffer the JAM tests stage messages in, and a byte pattern per seed.
inline constexpr uint64_t kBuf = 0x100000;
inline std::vector<uint8_t> bytes_of(uint32_t n, uint32_t seed) {
    std::vector<uint8_t> v(n);
    for (uint32_t i = 0; i < n; ++i) v[i] = uint8_t(seed * 31 + i * 7 + 1);
    return v;
}

struct JamPair : Pair {
    JamPair(JamParams jp = {}, RpcParams rp = {}) : JamPair(bus::PciParams{}, jp, rp) {}
    explicit JamPair(bus::PciParams bp, JamParams jp = {}, RpcParams rp = {})
        : Pair(bp), ja(a.niu, a.bus, kNiuBase, jp), jb(b.niu, b.bus, kNiuBase, jp), ra(ja, rp), rb(jb, rp) {}
    Jam ja, jb;
    JamRpc ra, rb;
    RdmaBoard board;

    std::unique_ptr<msg::Transport> transport(const std::string& name, bool on_a, uint64_t seed = 7) {
        TransportContext tc{on_a ? ja : jb, on_a ? &ra : &rb, &board, 1ull << 20};
        return make_transport(name, tc, on_a ? 1 : 0, seed);
    }
};

}  // namespace niclab::startx::test
