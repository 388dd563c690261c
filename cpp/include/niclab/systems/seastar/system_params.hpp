#pragma once
// Everything a SeaStar preset parameterizes: per node the NIC, the host CPU, the
// HyperTransport link between them (host PIO and the NIC's DMA), the Portals driver's
// costs, and the network between the nodes.
#include "niclab/bus/hypertransport.hpp"
#include "niclab/host/host_config.hpp"
#include "niclab/net/network.hpp"
#include "niclab/systems/seastar/config.hpp"
#include "niclab/systems/seastar/ss_nal.hpp"

namespace niclab::seastar {

struct SystemParams {
    SeaStarConfig nic;
    host::HostConfig host;
    bus::HyperTransportParams bus;
    HostPortalsCosts portals;
    net::NetworkParams net;
};

}  // namespace niclab::seastar
