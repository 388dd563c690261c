#pragma once
// Two StarT-X nodes back to back (the NIU tests' Pair) with JAM, JAM RPC and the RDMA
// side channel on each, and helpers to run transports between them.
#include <memory>

#include "niclab/systems/startx/jam.hpp"
#include "niclab/systems/startx/jam_rpc.hpp"
#include "niclab/systems/startx/transport.hpp"
#include "startx_test_support.hpp"

namespace niclab::startx::test {

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
