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
#include "niclab/systems/t9000/memory_system.hpp"
#include "niclab/systems/t9000/vcp.hpp"

namespace niclab::t9000 {

const system::SystemModel& model();

// Every T9000 parameter with its range (the presets cite each value).
std::vector<system::ParameterDecl> parameters();
VcpParams vcp_params(const system::Preset& preset, uint32_t node);
MemoryParams memory_params(const system::Preset& preset);
// DS links each node cables into the network (t9000.links, 1..4): the system's network
// has nodes x links terminals (system/terminals.hpp).
uint32_t links(const system::Preset& preset);

// What the virtual-link library costs the CPU.
struct VlCosts {
    Time channel_op;   // one in or out instruction: hand the channel to the VCP
    Time reschedule;   // the hardware scheduler restarting a process the VCP made ready
};
VlCosts vl_costs(const system::Preset& preset);

// The vl and vl_seq transports (and vlK: K virtual links on each of the node's links,
// used at once): messages of up to this size.
inline constexpr uint64_t kMaxVlMessage = 16ull << 20;
// Fig. 1 uses one to five VLs (L77), the short-message test ten per link (L145).
inline constexpr uint32_t kMaxVirtualLinks = 10;
std::vector<msg::TransportInfo> transport_infos();
// `vls_per_link` VLs on each of the VCP's links, VL i on link i mod links (0: one VL in
// all, on link 0). `blocking`: outputs block the process until acknowledged (vl_seq;
// one VL only).
// `heap`: the node's next free buffer address, shared by its transports (0 at first).
std::unique_ptr<msg::Transport> make_vl_transport(Vcp& me, Vcp& peer, host::HostMemory& memory, uint64_t& heap,
                                                  uint32_t vls_per_link, bool blocking, uint64_t seed, const VlCosts& costs);

// A T9000 node's VCP (niclab::Error naming the system if it is not a T9000).
Vcp& vcp(system::System& sys, size_t node);
MemorySystem& memory_system(system::System& sys, size_t node);

}  // namespace niclab::t9000
