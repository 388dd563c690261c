#pragma once
// GRIM on Myrinet (seed 004, Ulmer's thesis): LANai NICs (lanai.hpp) running GRIM's C
// firmware (firmware/grim), PCI hosts, a Myrinet crossbar with source routing; the
// host library's endpoints (endpoint.hpp), remote memory with the NI's translation
// cache (vm.hpp, translator.hpp) and the transports `am`, `rm-p` and `rm-v`.
#include <cstdint>
#include <vector>

#include "niclab/system/preset.hpp"
#include "niclab/system/system.hpp"
#include "niclab/system/system_model.hpp"
#include "niclab/systems/grim/endpoint.hpp"
#include "niclab/systems/grim/lanai.hpp"
#include "niclab/systems/grim/multicast.hpp"

namespace niclab::grim {

class Sockets;
struct SocketParams;

const system::SystemModel& model();

std::vector<system::ParameterDecl> parameters();
LanaiConfig lanai_config(const system::Preset& preset, uint32_t node, uint32_t nodes);
net::NetworkParams network_params(const system::Preset& preset);
// net.bit_errors_per_1e15 as a probability per bit, for the cables into the NIs.
double bit_error_rate(const system::Preset& preset);
EndpointParams endpoint_params(const system::Preset& preset);
SocketParams socket_params(const system::Preset& preset);

// Node `node`'s LANai (ConfigError-free: niclab::Error if the node is not a GRIM node).
LanaiNic& lanai(system::System& sys, size_t node);
// The node's GRIM endpoint on logical channel `lc`: LC 0's is set up through the
// driver on first use once the GRIM firmware runs, another LC (< grim.lcs) is opened
// next to it on first use; a firmware reload starts fresh ones. Throws niclab::Error
// naming the node when it runs other firmware, system::ConfigError naming "lc" for an
// LC the node does not have.
Endpoint& endpoint(system::System& sys, size_t node, uint32_t lc = 0);
// The node's multicast calls (§8.1, multicast.hpp); node 0 keeps the trees' database.
Multicast& multicast(system::System& sys, size_t node);
// The node's sockets emulation (§8.3, sockets.hpp) over that endpoint, made on first use
// (its handlers registered then); a fresh one with a fresh endpoint.
Sockets& sockets(system::System& sys, size_t node);

}  // namespace niclab::grim
