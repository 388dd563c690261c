#pragma once
// A node's network ports and the network's terminals. Most NICs have one port into the
// network; a T9000 cables up to four links (seed 003 L61), each its own cable into the
// network. The network sees one terminal per port, nodes × ports in all, numbered port
// by port: terminal = port × nodes + node, so with one port per node terminal = node,
// and on a direct connection of two nodes (nodes = 2) port p of node 0 and port p of
// node 1 are terminals 2p and 2p + 1, the pair net::DirectCable cables together (link
// i to link i). This is the one place that mapping lives.
#include <cstdint>
#include <string>

namespace niclab::system {

struct Terminals {
    uint32_t nodes = 1;
    uint32_t ports = 1;  // per node

    uint32_t count() const { return nodes * ports; }
    uint32_t terminal(uint32_t node, uint32_t port) const { return port * nodes + node; }
    uint32_t node_of(uint32_t terminal) const { return terminal % nodes; }
    uint32_t port_of(uint32_t terminal) const { return terminal / nodes; }
    // "node 3", or "node 3 link 1" where nodes have several ports (captures, listings).
    std::string name(uint32_t terminal) const {
        return "node " + std::to_string(node_of(terminal)) + (ports > 1 ? " link " + std::to_string(port_of(terminal)) : "");
    }
};

}  // namespace niclab::system
