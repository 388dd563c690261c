#pragma once
// The T9000 transputer in the registry of systems (seed 003 P1 §2): the CPU is the host
// (processes on its hardware scheduler), the VCP is its fixed-function NIC (vcp.hpp), no
// separate host bus, four DS links into the DS-link network part (ds_network.hpp).
#include <cstdint>
#include <memory>
#include <vector>

#include "niclab/msg/transport.hpp"
#include "niclab/system/preset.hpp"
#include "niclab/system/system.hpp"
#include "niclab/system/system_model.hpp"
#include "niclab/systems/t9000/vcp.hpp"

namespace niclab::t9000 {

const system::SystemModel& model();

// Every T9000 parameter with its range (the presets cite each value).
std::vector<system::ParameterDecl> parameters();
VcpParams vcp_params(const system::Preset& preset, uint32_t node);

// What the virtual-link library costs the CPU.
struct VlCosts {
    Time channel_op;   // one in or out instruction: hand the channel to the VCP
    Time reschedule;   // the hardware scheduler restarting a process the VCP made ready
};
VlCosts vl_costs(const system::Preset& preset);

// The vl and vl_seq transports (and vlK: K virtual links used at once): messages of up
// to this size.
inline constexpr uint64_t kMaxVlMessage = 16ull << 20;
// Fig. 1 uses one to five VLs (L77), the short-message test ten per link (L145).
inline constexpr uint32_t kMaxVirtualLinks = 10;
std::vector<msg::TransportInfo> transport_infos();
// `blocking`: outputs block the process until acknowledged (vl_seq; one link only).
std::unique_ptr<msg::Transport> make_vl_transport(Vcp& me, Vcp& peer, host::HostMemory& memory, uint32_t links,
                                                  bool blocking, uint64_t seed, const VlCosts& costs);

// A T9000 node's VCP (niclab::Error naming the system if it is not a T9000).
Vcp& vcp(system::System& sys, size_t node);

}  // namespace niclab::t9000
