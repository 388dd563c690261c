#pragma once
// The StarT-X's msg::Transport adapters, one per way JAM moves data (seed 002 §5-6). What
// "n bytes" means for each (every one moves n bytes of the benchmark pattern from the
// sender's buffer to the receiver's and checks them byte for byte):
//
//  pio    JAM's generalized PIO primitives (ldd/std), high priority, fixed up-route. n
//         payload bytes travel as max(1, ceil(n/88)) messages of up to 22 payload words
//         behind the 8-byte hardware header; the receiver reassembles them. So Table 1's
//         "16-byte message" is n = 8 and its "64-byte message" n = 56: Table 1's sizes
//         include the header (digest A-S2).
//  pio64  the 64-byte primitives (ldda/stda): max(1, ceil(n/56)) 16-word messages, each a
//         64-byte-aligned slot of the send buffer (8-byte header + 56 payload bytes), so
//         Table 1 row (c) is n = 56.
//  vi     PIO transmit (as pio) + VI receive: the combination seed 002 §5.2 L176
//         recommends; the receiver's RX DMA fills a several-megabyte host buffer and JAM
//         copies each message's payload out of it. High priority (VI is high-priority only).
//  rdma   RDMA (§5.3): the TX DMA streams n bytes (padded to whole words) as 88-byte
//         chunks; the receiver opens a window of that size for the sender with a driver
//         call and waits for it to fill. The exclusive-access protocol is excluded as in
//         §6.1.2 L226: the request (size and tag) and the grant pass through a zero-cost
//         side channel, so the transfer still waits for the receiver's window.
//  rdma_excl  RDMA with the exclusive-access protocol as JAM messages: a low-priority PIO
//         request (size, tag) and grant before every transfer, their cost included.
//  rpc    JAM RPC (§6.2): JAM_rpc of a handler that checks and delivers the argument;
//         PIO (low priority, a 16-byte RPC header in front of the argument) up to
//         jam.rpc_pio_max_bytes, RDMA with the exclusive-access protocol above.
//
// Tags: pio/pio64/vi carry tags below 4096 (or one equal to the previous transfer's) in
// JAM's header word (jam_word.hpp); any other tag costs one extra control message ahead
// of the transfer. rdma carries the tag in the side channel, rdma_excl and rpc in the
// request or RPC header.
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "niclab/host/condition.hpp"
#include "niclab/msg/transport.hpp"
#include "niclab/systems/startx/jam.hpp"

namespace niclab::startx {

class JamRpc;

// The largest n any StarT-X transport takes (its buffers are sized at open()).
inline constexpr uint64_t kMaxTransportMessage = 16ull << 20;  // 16 MiB

// The StarT-X transports, default first.
std::vector<msg::TransportInfo> transport_infos();

// The rdma transport's zero-cost exclusive-access side channel, one per System (every
// node's transports share it): requests from senders to receivers and the grants.
struct RdmaBoard {
    struct Request {
        uint32_t from = 0, to = 0;
        uint64_t bytes = 0;
        uint64_t tag = 0;
    };
    std::vector<Request> requests;                   // waiting for a window, oldest first
    std::vector<std::pair<uint32_t, uint32_t>> grants;  // (sender, receiver) whose window is open
    host::Condition changed;
};

// A stream transport (pio, pio64, vi, vi_tx) as the other stream transports of its node
// see it. A node with several peers (a halo exchange: one transport per neighbour) has
// one receive queue for all of them, so whichever transport takes a message hands it to
// the transport of its sender: where a PIO receive puts it, and taking it.
class StreamReceiver {
public:
    virtual ~StreamReceiver() = default;
    virtual uint64_t landing() = 0;
    virtual void process(host::ProcessContext& ctx, const JamMessage& m) = 0;
};
// The node's stream transports, by peer.
using StreamReceivers = std::vector<std::pair<uint32_t, StreamReceiver*>>;

// The node's libraries as a transport needs them.
struct TransportContext {
    Jam& jam;
    JamRpc* rpc = nullptr;                 // the node's JAM RPC (rpc transport)
    RdmaBoard* board = nullptr;            // the system's side channel (rdma transport)
    uint64_t vi_buffer_bytes = 4ull << 20; // the VI receive region (vi transport)
    StreamReceivers* receivers = nullptr;  // the node's stream transports (pio, pio64, vi, vi_tx)
};

// TransportError naming the transport and the choices for an unknown name.
std::unique_ptr<msg::Transport> make_transport(const std::string& name, const TransportContext& tc, uint32_t peer,
                                               uint64_t seed);

}  // namespace niclab::startx
