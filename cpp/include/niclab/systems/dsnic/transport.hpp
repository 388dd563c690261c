#pragma once
// The DSNIC's transports for the experiments (msg/transport.hpp): CSP channels.
#include <memory>
#include <string>
#include <vector>

#include "niclab/host/host_memory.hpp"
#include "niclab/msg/transport.hpp"
#include "niclab/systems/dsnic/driver.hpp"

namespace niclab::dsnic {

std::vector<msg::TransportInfo> transport_infos();
std::unique_ptr<msg::Transport> make_transport(const std::string& name, Driver& driver, uint32_t peer, uint64_t seed,
                                               host::HostMemory& memory);

}  // namespace niclab::dsnic
