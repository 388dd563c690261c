// The DSNIC board (board.hpp): the S5933, the C101 and the FPGA blocks wired together
// (mux: each DMA channel to its FIFO; passthru: C101::read_register).
#include "niclab/systems/dsnic/board.hpp"

namespace niclab::dsnic {

Board::Board(sim::Kernel& kernel, bus::PciBus& bus, net::Network* network, const BoardParams& p)
    : kernel_(kernel), p_(p), buffers_(p.packet_bytes), s5933_(bus), c101_(kernel, network, p, buffers_), infifo_(p.fifo_bytes),
      outfifo_(p.fifo_bytes) {
    c101_.set_receiver([this](const net::PacketView& packet, Time tail_at) { return comin(packet, tail_at); });
}

void Board::event() {
    ++counters_.events;
    if (event_) event_();
}

}  // namespace niclab::dsnic
