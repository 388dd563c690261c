#pragma once
// GRIM's transports for the experiments (msg/transport.hpp): `am`, `rm-p`, `rm-v` and
// `sockets` (sock_transport.cpp), any number open on one node, to one peer or several
// (a halo exchange).
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "niclab/host/condition.hpp"
#include "niclab/msg/transport.hpp"
#include "niclab/sim/kernel.hpp"
#include "niclab/sim/ring_queue.hpp"
#include "niclab/systems/grim/endpoint.hpp"

namespace niclab::grim {

// Where a transport takes its peer's remote memory blocks: its receive buffer and
// notification word (rm-p: physical addresses, rm-v: virtual). `tags`: the sender's
// tags of the messages on their way, oldest first -- the benchmark's bookkeeping, out
// of band: the notification value is all RM-P carries (§4.5.5), and it holds the
// message count and size.
struct Landing {
    uint64_t recv = 0, notify = 0;
    sim::RingQueue<uint64_t> tags;
    // sockets: the sizes of the blocks on their way, oldest first (a byte stream has no
    // boundaries; the benchmark's two programs know each block's size, §8.3.4).
    sim::RingQueue<uint64_t> sizes;
};

// Host memory the transports take: the k-th transport of a node has its send and
// receive buffers kTransportMaxMessage * k above these (transport.cpp).
inline constexpr uint64_t kTransportMaxMessage = 16ull << 20;
inline constexpr uint64_t kTransportSendBase = 0x1000'0000, kTransportRecvBase = 0x2000'0000;
// 14 keep the am transport's reassembly buffers under the library's words at
// 0x3FFF'C000 (endpoint.hpp).
inline constexpr uint32_t kMaxTransports = 14;

class Sockets;

// The set-up the benchmark programs do out of band before their traffic (the thesis's
// RM benchmark writes into its peer's buffer, §5.5.1 L1413, so each side knows the
// other's): one per system. The k-th transport from a node to a peer pairs with the
// k-th transport from that peer back to it; each publishes its Landing when it has one.
class TransportDirectory {
public:
    explicit TransportDirectory(sim::Kernel& kernel) : kernel_(kernel) {}
    struct Slot {
        uint32_t index;    // among the node's transports: which buffers it takes
        uint32_t pairing;  // among the node's transports to this peer: its counterpart there
    };
    Slot add(uint32_t node, uint32_t peer);
    void publish(uint32_t node, uint32_t peer, uint32_t pairing, uint64_t recv, uint64_t notify);
    Landing* find(uint32_t node, uint32_t peer, uint32_t pairing);
    host::Condition& published() { return published_; }

private:
    std::map<uint32_t, uint32_t> per_node_;
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> per_pair_;
    std::map<std::tuple<uint32_t, uint32_t, uint32_t>, Landing> landings_;
    sim::Kernel& kernel_;
    host::Condition published_;
};

std::vector<msg::TransportInfo> transport_infos();
// am, rm-p, rm-v (the sockets transport needs the node's Sockets: make_socket_transport).
std::unique_ptr<msg::Transport> make_transport(const std::string& name, Endpoint& ep, host::HostMemory& memory,
                                               TransportDirectory& directory, uint32_t peer, uint64_t seed);
// `sockets`: a connection per transport pair through the node's emulation (sockets.hpp).
std::unique_ptr<msg::Transport> make_socket_transport(Sockets& sockets, host::HostMemory& memory, TransportDirectory& directory,
                                                      uint32_t peer, uint64_t seed);

}  // namespace niclab::grim
