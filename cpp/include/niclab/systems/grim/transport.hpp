#pragma once
// GRIM's transports for the experiments (msg/transport.hpp): `am`, `rm-p` and `rm-v`.
#include <memory>
#include <string>
#include <vector>

#include "niclab/msg/transport.hpp"
#include "niclab/systems/grim/endpoint.hpp"

namespace niclab::grim {

std::vector<msg::TransportInfo> transport_infos();
std::unique_ptr<msg::Transport> make_transport(const std::string& name, Endpoint& ep, host::HostMemory& memory, uint32_t peer,
                                               uint64_t seed);

}  // namespace niclab::grim
