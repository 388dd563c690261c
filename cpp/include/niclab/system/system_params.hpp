#pragma once
// Everything a preset parameterizes: per node the NIC, the host CPU and the host's
// programmed-I/O costs, and the network between the nodes.
#include "niclab/host/host_config.hpp"
#include "niclab/msg/portals/ss_nal.hpp"
#include "niclab/msg/raw_nic.hpp"
#include "niclab/net/network.hpp"
#include "niclab/nic/nic_config.hpp"

namespace niclab::system {

struct SystemParams {
    nic::NicConfig nic;
    host::HostConfig host;
    msg::PioConfig pio;
    portals::HostPortalsCosts portals;
    net::NetworkParams net;
};

}  // namespace niclab::system
