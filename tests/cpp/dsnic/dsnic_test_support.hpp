#pragma once
// A two-node DSNIC System and CSP channels between node 0 (sender) and node 1
// (receiver), with payloads of real bytes the test writes and checks itself.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "niclab/systems/dsnic/csp.hpp"
#include "niclab/systems/dsnic/model.hpp"
#include "test_bytes.hpp"
#include "test_processes.hpp"

namespace niclab::dsnic::test {

inline constexpr uint64_t kSend = 0x100000, kRecv = 0x4000000;
inline constexpr uint8_t kGuard = 0xEE;

inline system::SystemSpec spec(uint32_t packet_bytes, nlohmann::json more = nlohmann::json::object()) {
    nlohmann::json set = {{"dsnic.packet_bytes", packet_bytes}};
    for (auto& [k, v] : more.items()) set[k] = v;
    return system::SystemSpec::from_json({{"system", "dsnic"}, {"nodes", 2}, {"seed", 7}, {"set", set}});
}

using niclab::test::payload;
using niclab::test::read;

}  // namespace niclab::dsnic::test
