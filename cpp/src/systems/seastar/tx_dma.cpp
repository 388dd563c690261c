#include "niclab/systems/seastar/tx_dma.hpp"

#include <algorithm>

namespace niclab::seastar {

TxDma::TxDma(sim::Kernel& kernel, bus::HyperTransport& bus, const DmaConfig& cfg, uint32_t node_id, RaiseIrq raise)
    : kernel_(kernel), bus_(bus), cfg_(cfg), node_id_(node_id), raise_(std::move(raise)),
      cmds_(NICLAB_TXDMA_CMD_RING, NICLAB_TXDMA_CMD_BYTES, NICLAB_DMA_FIFO_ENTRIES), cpls_(NICLAB_TXDMA_CPL_RING, NICLAB_TXDMA_CPL_BYTES, NICLAB_DMA_FIFO_ENTRIES) {}

void TxDma::reset() {
    kernel_.cancel(pump_event_);
    pump_event_ = {};
    cmds_.reset();
    cpls_.reset();
    msg_ = Message{};
    packet_waiting_ = waiting_for_credit_ = completion_deferred_ = false;
    ahead_count_ = 0;  // packets injected ahead stay in the network (inject_ahead)
}

bool TxDma::read(uint32_t offset, uint32_t& value) {
    switch (offset) {
        case NICLAB_TXDMA_CMD_HEAD: value = cmds_.head; return true;
        case NICLAB_TXDMA_CMD_TAIL: value = cmds_.tail; return true;
        case NICLAB_TXDMA_CPL_HEAD: value = cpls_.head; return true;
        case NICLAB_TXDMA_CPL_TAIL: value = cpls_.tail; return true;
        case NICLAB_TXDMA_PACKETS: value = uint32_t(packets_sent()); return true;
    }
    if (cmds_.contains(offset)) { value = cmds_.load(offset); return true; }
    if (cpls_.contains(offset)) { value = cpls_.load(offset); return true; }
    return false;
}

bool TxDma::write(uint32_t offset, uint32_t value) {
    switch (offset) {
        case NICLAB_TXDMA_CMD_TAIL:
            cmds_.tail = value % NICLAB_DMA_FIFO_ENTRIES;
            try_start();
            return true;
        case NICLAB_TXDMA_CPL_HEAD:
            cpls_.head = value % NICLAB_DMA_FIFO_ENTRIES;
            if (completion_deferred_) finish();  // it was waiting for room
            return true;
    }
    if (cmds_.contains(offset)) { cmds_.store(offset, value); return true; }
    return false;  // the completion ring and the engine's indices are read-only
}

Time TxDma::data_ready(uint64_t bytes_into_message) {
    // Host data streams in from the start the bus gave, as fast as the link and the
    // engine's outstanding reads allow.
    return msg_.data_start + msg_.stream.at(bytes_into_message);
}

void TxDma::try_start() {
    if (msg_.active) return;
    // A message can start once all its commands (START .. END) are in the FIFO.
    uint32_t end = cmds_.head;
    uint64_t bytes = 0;
    bool host_fault = false;
    for (;; end = cmds_.next(end)) {
        if (end == cmds_.tail) return;
        const uint32_t* c = cmds_.entry(end);
        uint64_t addr = (uint64_t(c[NICLAB_TXCMD_ADDR_HI]) << 32) | c[NICLAB_TXCMD_ADDR_LO];
        if (addr + c[NICLAB_TXCMD_LENGTH] > cfg_.host_memory_bytes) host_fault = true;
        bytes += c[NICLAB_TXCMD_LENGTH];
        if (c[NICLAB_TXCMD_CTRL] & NICLAB_TXCMD_END) break;
    }
    const uint32_t* first = cmds_.entry(cmds_.head);
    msg_ = Message{};
    crc_.clear();
    msg_.active = true;
    msg_.first_cmd = msg_.cmd = cmds_.head;
    msg_.end_cmd = end;
    msg_.dst = first[NICLAB_TXCMD_DST];
    msg_.tag = cmds_.entry(end)[NICLAB_TXCMD_TAG];
    msg_.id = next_message_id_++;
    msg_.bytes = host_fault ? 0 : bytes;
    msg_.status = host_fault ? NICLAB_DMA_HOST_FAULT : NICLAB_DMA_OK;
    if (host_fault) {
        finish();  // nothing is read or sent from outside host memory
        return;
    }
    // The engine issues its read requests for the whole message at once (pipelined);
    // the data holds the bus's to-NIC response channel while it streams in.
    msg_.data_start = bus_.dma_read_stream(kernel_.now(), bytes);
    msg_.stream = bus::ReadStreamClock(bus_.params());
    pump_event_ = kernel_.schedule_at(data_ready(std::min<uint64_t>(bytes, net::Packet::kMaxPayload)), [this] {
        pump_event_ = {};
        pump();
    }, kernel_.context(), lane());
}

bool TxDma::gather_packet(net::Packet& p) {
    // The header afresh; the payload is overwritten up to its length, and nothing reads
    // past it (zeroing the whole frame per packet was a sixth of this function's time).
    static_cast<net::PacketHeader&>(p) = net::PacketHeader{};
    p.src = node_id_;
    p.dst = msg_.dst;
    p.message_id = msg_.id;
    p.sequence = msg_.sequence++;
    p.head = msg_.sent == 0;
    p.message_bytes = uint32_t(msg_.bytes);
    uint32_t n = uint32_t(std::min<uint64_t>(net::Packet::kMaxPayload, msg_.bytes - msg_.sent));
    p.length = uint16_t(n);
    uint32_t filled = 0;
    while (filled < n) {  // gather across the message's regions
        const uint32_t* c = cmds_.entry(msg_.cmd);
        uint64_t addr = (uint64_t(c[NICLAB_TXCMD_ADDR_HI]) << 32) | c[NICLAB_TXCMD_ADDR_LO];
        uint64_t left = c[NICLAB_TXCMD_LENGTH] - msg_.cmd_offset;
        uint32_t take = uint32_t(std::min<uint64_t>(left, n - filled));
        bus_.dma_read_data(addr + msg_.cmd_offset, {p.payload.data() + filled, take});
        filled += take;
        msg_.cmd_offset += take;
        if (msg_.cmd_offset == c[NICLAB_TXCMD_LENGTH] && msg_.cmd != msg_.end_cmd) {
            msg_.cmd = cmds_.next(msg_.cmd);
            msg_.cmd_offset = 0;
        }
    }
    crc_.add(p.data());
    msg_.sent += n;
    p.tail = msg_.sent == msg_.bytes;
    if (p.tail) p.message_crc = crc_.value();
    return p.tail;
}

void TxDma::pump() {
    // Inject packets while their data is in and the network takes them; otherwise wait
    // for the data (an event) or for a credit (injection_ready()). A packet whose data
    // is still coming in is injected ahead where the network can (an event per packet
    // fewer), all but the message's tail: its completion is posted at its time.
    Time made = kernel_.now();  // when the pump event for the next packet would be scheduled
    for (;;) {
        if (!packet_waiting_) {
            gather_packet(packet_);
            packet_waiting_ = true;
            Time ready = data_ready(msg_.sent);
            if (ready > kernel_.now()) {
                if (!packet_.tail && inject_ahead(ready, made)) continue;
                // After packets injected ahead, keyed as the last one's pump event would
                // have scheduled it.
                auto next = [this] {
                    pump_event_ = {};
                    pump();
                };
                pump_event_ = made == kernel_.now()
                                  ? kernel_.schedule_at(ready, next, kernel_.context(), lane())
                                  : kernel_.schedule_reserved(ready, kernel_.key_made_at(made), next, kernel_.context(), lane());
                return;
            }
        }
        if (!port_ || !port_->inject(packet_)) {
            waiting_for_credit_ = true;
            return;
        }
        ++packets_;
        packet_waiting_ = false;
        if (packet_.tail) {
            finish();
            return;
        }
    }
}

// The waiting packet, its data in at `ready`, injected now as of then: the pump event
// that would have injected it (scheduled at `made`) is kept as its time and key, for
// PACKETS to count the packet once that event would have fired.
bool TxDma::inject_ahead(Time ready, Time& made) {
    // The counted ones' records go once the ring is full (a scan at every packet was 2 % of
    // a bulk packet's instructions).
    if (ahead_count_ == ahead_.size()) {
        const uint32_t pending = ahead_pending();
        ahead_first_ = uint32_t((ahead_first_ + ahead_count_ - pending) % ahead_.size());
        ahead_count_ = pending;
    }
    if (ahead_count_ == ahead_.size() || !port_ || !port_->inject_ahead(packet_, ready)) return false;
    // Taken, so not in a core's run (Network::sends_ahead): the key is key_made_at's, now too.
    ahead_[(ahead_first_ + ahead_count_++) % ahead_.size()] = Ahead{ready, kernel_.key_made_at(made)};
    made = ready;
    ++packets_;
    packet_waiting_ = false;
    return true;
}

// Those not yet counted: the ones whose pump event would not have fired by now.
uint32_t TxDma::ahead_pending() const {
    uint32_t passed = 0;
    while (passed < ahead_count_) {
        const Ahead& a = ahead_[(ahead_first_ + passed) % ahead_.size()];
        if (!kernel_.passed(a.at, a.key, node_id_)) break;
        ++passed;
    }
    return ahead_count_ - passed;
}

void TxDma::injection_ready() {
    if (!waiting_for_credit_) return;
    waiting_for_credit_ = false;
    pump();
}

void TxDma::finish() {
    completion_deferred_ = cpls_.full();
    if (completion_deferred_) return;  // resumes when the firmware frees a completion slot
    uint32_t* cpl = cpls_.entry(cpls_.tail);
    cpl[NICLAB_CPL_TAG] = msg_.tag;
    cpl[NICLAB_CPL_STATUS] = msg_.status;
    cpl[NICLAB_CPL_BYTES] = uint32_t(msg_.bytes);
    cpl[NICLAB_CPL_SLOT] = 0;
    cpls_.tail = cpls_.next(cpls_.tail);
    cmds_.head = cmds_.next(msg_.end_cmd);
    msg_.active = false;
    ++messages_;
    raise_(NICLAB_IRQ_TX_DONE);
    try_start();
}

}  // namespace niclab::seastar
