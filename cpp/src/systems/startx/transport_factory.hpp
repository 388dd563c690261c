#pragma once
// The constructors behind make_transport (transport.hpp), one per file.
#include <memory>
#include <string>

#include "niclab/systems/startx/transport.hpp"

namespace niclab::startx {

// vi: PIO transmit + VI receive; vi_tx: VI transmit (one driver call per send) + VI receive.
enum class StreamMode { pio, pio64, vi, vi_tx };

std::unique_ptr<msg::Transport> make_stream_transport(const std::string& name, StreamMode mode,
                                                      const TransportContext& tc, uint32_t peer, uint64_t seed);
std::unique_ptr<msg::Transport> make_rdma_transport(const std::string& name, bool exclusive, const TransportContext& tc,
                                                    uint32_t peer, uint64_t seed);
std::unique_ptr<msg::Transport> make_rpc_transport(const TransportContext& tc, uint32_t peer, uint64_t seed);

}  // namespace niclab::startx
