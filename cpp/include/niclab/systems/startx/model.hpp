#pragma once
// The StarT-X in the registry of systems (seed 002): a fixed-function NIU behind 32-bit
// 33 MHz PCI on SUN E5000 hosts, the Arctic fat tree, JAM and JAM RPC on every node.
#include <cstdint>
#include <vector>

#include "niclab/bus/pci.hpp"
#include "niclab/system/preset.hpp"
#include "niclab/system/system.hpp"
#include "niclab/system/system_model.hpp"
#include "niclab/systems/startx/jam.hpp"
#include "niclab/systems/startx/jam_rpc.hpp"
#include "niclab/systems/startx/niu.hpp"

namespace niclab::startx {

const system::SystemModel& model();

// Where the NIU's register window sits in each host's PIO space.
inline constexpr uint64_t kNiuWindowBase = 0x1'0000'0000;

// Every StarT-X parameter with its range (the preset cites each value).
std::vector<system::ParameterDecl> parameters();
// The preset's values as the parts' configurations.
bus::PciParams pci_params(const system::Preset& preset);
NiuParams niu_params(const system::Preset& preset, uint32_t node);
JamParams jam_params(const system::Preset& preset);
RpcParams rpc_params(const system::Preset& preset);
net::NetworkParams network_params(const system::Preset& preset);
// The default topology for `nodes` nodes: a two-level fat tree with node 0 and node 1 on
// different leaves (see model.cpp).
nlohmann::json default_topology(uint32_t nodes);

// A StarT-X node's JAM and JAM RPC (niclab::Error naming the system if it is not one).
Jam& jam(system::System& sys, size_t node);
JamRpc& jam_rpc(system::System& sys, size_t node);

}  // namespace niclab::startx
