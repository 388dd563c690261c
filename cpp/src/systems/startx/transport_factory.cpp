// The StarT-X transports by name (transport.hpp).
#include "transport_factory.hpp"

namespace niclab::startx {

std::vector<msg::TransportInfo> transport_infos() {
    const uint64_t max = kMaxTransportMessage;
    return {
        {"pio", "JAM generalized PIO (ldd/std), high priority: n bytes as ceil(n/88) messages behind 8-byte headers; "
                "Table 1's 16/64-byte messages are n = 8/56", {"send"}, max},
        {"pio64", "JAM 64-byte PIO (ldda/stda): n bytes as ceil(n/56) 64-byte messages; Table 1 row (c) is n = 56", {"send"}, max},
        {"vi", "PIO transmit + VI receive (seed 002 §5.2 L176): the RX DMA fills a host ring, JAM copies out", {"send"}, max},
        {"vi_tx", "VI transmit + VI receive (seed 002 §5.2): a send writes its messages into a pinned host region and "
                  "starts the TX DMA with one driver call; efficient only when n spans many messages (L174)", {"send"}, max},
        {"rdma", "RDMA: DMA of n bytes into a window the receiver opens; exclusive-access protocol excluded (§6.1.2 L226)",
         {"send"}, max},
        {"rdma_excl", "RDMA with the exclusive-access protocol (low-priority request/grant messages) included", {"send"}, max},
        {"rpc", "JAM RPC: JAM_rpc/JAM_poll, PIO up to jam.rpc_pio_max_bytes, RDMA with the protocol above", {"send"}, max},
    };
}

std::unique_ptr<msg::Transport> make_transport(const std::string& name, const TransportContext& tc, uint32_t peer,
                                               uint64_t seed) {
    if (name == "pio") return make_stream_transport(name, StreamMode::pio, tc, peer, seed);
    if (name == "pio64") return make_stream_transport(name, StreamMode::pio64, tc, peer, seed);
    if (name == "vi") return make_stream_transport(name, StreamMode::vi, tc, peer, seed);
    if (name == "vi_tx") return make_stream_transport(name, StreamMode::vi_tx, tc, peer, seed);
    if (name == "rdma") return make_rdma_transport(name, false, tc, peer, seed);
    if (name == "rdma_excl") return make_rdma_transport(name, true, tc, peer, seed);
    if (name == "rpc") return make_rpc_transport(tc, peer, seed);
    std::string known;
    for (const auto& t : transport_infos()) known += (known.empty() ? "" : ", ") + t.name;
    throw msg::TransportError("the StarT-X has no transport '" + name + "' (it offers " + known + ")");
}

}  // namespace niclab::startx
