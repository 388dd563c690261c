#include "niclab/systems/seastar/rx_dma.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

#include "niclab/net/crc.hpp"
#include "niclab/sim/copy_bytes.hpp"

namespace niclab::seastar {

namespace {
// A position in a slot's ring, at most one lap past its end: a compare, not a division
// (two per packet).
size_t wrap(size_t at, size_t cap) { return at >= cap ? at - cap : at; }
}  // namespace

RxDma::RxDma(sim::Kernel& kernel, bus::HyperTransport& bus, const DmaConfig& cfg, RaiseIrq raise)
    : kernel_(kernel), bus_(bus), cfg_(cfg), raise_(std::move(raise)),
      events_(NICLAB_RXDMA_EVT_RING, NICLAB_RXDMA_EVT_BYTES, NICLAB_DMA_FIFO_ENTRIES), cmds_(NICLAB_RXDMA_CMD_RING, NICLAB_RXDMA_CMD_BYTES, NICLAB_DMA_FIFO_ENTRIES),
      cpls_(NICLAB_RXDMA_CPL_RING, NICLAB_RXDMA_CPL_BYTES, NICLAB_DMA_FIFO_ENTRIES),
      buffers_(size_t(cfg_.rx_buffer_bytes) * NICLAB_RXDMA_SLOTS, "the RX DMA engine's slot buffers") {
    // A slot's deposit list grows at its first messages and keeps its capacity (reset too),
    // so the packet path allocates nothing once each slot in use has held its longest list;
    // a slot never used costs nothing (most of a large system's nodes use a few).
    for (size_t i = 0; i < slots_.size(); ++i) slots_[i].buffer = {buffers_.data() + i * cfg_.rx_buffer_bytes, cfg_.rx_buffer_bytes};
}

void RxDma::reset() {
    events_.reset();
    cmds_.reset();
    cpls_.reset();
    cpl_visible_tail_ = 0;
    ++generation_;
    for (Slot& s : slots_) {
        auto buffer = s.buffer;
        auto deposits = std::move(s.deposits);
        deposits.clear();
        s = Slot{};
        s.buffer = buffer;
        s.deposits = std::move(deposits);
    }
    busy_ = 0;
    host_write_free_ = kernel_.now();
    set_refused(false);
    exhaustion_signalled_ = false;
}

void RxDma::set_reach(uint32_t node, Time extra) {
    node_ = node;
    reach_ = extra;
    kernel_.set_reach(node_, refused_ ? Time{} : reach_);
}

// Every change of refused_ goes through here, so the kernel's reach for this node's core
// is lowered the moment the network starts holding a packet for it.
void RxDma::set_refused(bool refused) {
    if (refused == refused_) return;
    refused_ = refused;
    refusals_ += refused;
    if (node_ != sim::kNoNode) kernel_.set_reach(node_, refused_ ? Time{} : reach_);
}

void RxDma::release_held() {
    set_refused(false);
    port_->receive_ready();
}

bool RxDma::read(uint32_t offset, uint32_t& value) {
    switch (offset) {
        case NICLAB_RXDMA_EVT_HEAD: value = events_.head; return true;
        case NICLAB_RXDMA_EVT_TAIL: value = events_.tail; return true;
        case NICLAB_RXDMA_CMD_HEAD: value = cmds_.head; return true;
        case NICLAB_RXDMA_CMD_TAIL: value = cmds_.tail; return true;
        case NICLAB_RXDMA_CPL_HEAD: value = cpls_.head; return true;
        case NICLAB_RXDMA_CPL_TAIL: value = cpl_visible_tail_; return true;
        case NICLAB_RXDMA_EXHAUSTED: value = uint32_t(exhausted_); return true;
        case NICLAB_RXDMA_PACKETS: value = uint32_t(packets_); return true;
    }
    for (nic::DeviceRing* r : {&events_, &cmds_, &cpls_})
        if (r->contains(offset)) {
            value = r->load(offset);
            return true;
        }
    return false;
}

bool RxDma::write(uint32_t offset, uint32_t value) {
    switch (offset) {
        case NICLAB_RXDMA_EVT_HEAD:
            events_.head = value % NICLAB_DMA_FIFO_ENTRIES;
            let_held_in();  // a new message may have waited for an event entry
            return true;
        case NICLAB_RXDMA_CMD_TAIL:
            cmds_.tail = value % NICLAB_DMA_FIFO_ENTRIES;
            take_commands();
            return true;
        case NICLAB_RXDMA_CPL_HEAD:
            cpls_.head = value % NICLAB_DMA_FIFO_ENTRIES;
            for (uint32_t b = busy_; b; b &= b - 1) {  // some may wait for room; in slot order
                const uint32_t i = uint32_t(std::countr_zero(b));
                maybe_complete(slots_[i], i);
            }
            return true;
    }
    if (cmds_.contains(offset)) {
        cmds_.store(offset, value);
        return true;
    }
    return false;
}

int RxDma::allocate_slot(const net::PacketView& head) {
    if (events_.full()) return -1;
    const uint32_t all = uint32_t((uint64_t(1) << slots_.size()) - 1);
    if (busy_ != all) {  // the lowest free slot
        const uint32_t i = uint32_t(std::countr_one(busy_));
        Slot& s = slots_[i];
        busy_ |= 1u << i;
        keys_[i] = key(head.src, head.message_id);
        s.bytes = head.message_bytes;
        s.arrived = s.consumed = s.deposited = 0;
        s.crc = s.expected_crc = s.crc_pending = 0;
        s.tail_seen = s.host_fault = s.end_seen = false;
        s.buf_start = s.buf_len = 0;
        s.deposits.clear();
        s.deposit_next = 0;
        s.deposit_done = 0;
        s.tag = 0;
        uint32_t* e = events_.entry(events_.tail);
        e[NICLAB_RXEVT_SLOT] = i;
        e[NICLAB_RXEVT_SRC] = head.src;
        e[NICLAB_RXEVT_LENGTH] = head.message_bytes;
        e[NICLAB_RXEVT_HEADER_BYTES] = head.length;
        std::memset(reinterpret_cast<uint8_t*>(e) + NICLAB_RXEVT_HEADER, 0, NICLAB_PACKET_PAYLOAD);
        std::memcpy(reinterpret_cast<uint8_t*>(e) + NICLAB_RXEVT_HEADER, head.payload.data(), head.length);
        events_.tail = events_.next(events_.tail);
        raise_(NICLAB_IRQ_RX_EVENT);
        return int(i);
    }
    return -1;
}

bool RxDma::deliver(const net::PacketView& p) {
    int index = find_slot(p.src, p.message_id);
    if (index < 0 && !p.head) {
        ++orphans_;  // a packet of no message in progress (its head was lost): dropped
        return true;
    }
    if (index < 0) {
        index = allocate_slot(p);
        if (index < 0) {
            // Resource exhaustion: the firmware sees it (counter + interrupt); the
            // network holds the packet until a slot frees.
            if (!exhaustion_signalled_) {
                ++exhausted_;
                exhaustion_signalled_ = true;
                raise_(NICLAB_IRQ_RX_EXHAUSTED);
            }
            set_refused(true);
            return false;
        }
        exhaustion_signalled_ = false;
    }
    Slot& s = slots_[index];
    if (s.buffer.size() - s.buf_len < p.length) {
        set_refused(true);  // its deposit commands have not come yet and its buffer is full
        return false;
    }
    // Append to the ring buffer: at most two contiguous pieces.
    const size_t cap = s.buffer.size(), at = wrap(s.buf_start + s.buf_len, cap);
    if (s.crc_pending + p.length > cap) fold_crc(s);
    const size_t first = std::min<size_t>(p.length, cap - at);
    sim::copy_bytes(&s.buffer[at], p.payload.data(), first);
    if (p.length > first) std::memcpy(&s.buffer[0], p.payload.data() + first, p.length - first);
    s.buf_len += p.length;
    s.arrived += p.length;
    s.crc_pending += p.length;
    if (p.tail) {
        s.tail_seen = true;
        s.expected_crc = p.message_crc;
    }
    ++packets_;
    drain(s, uint32_t(index));
    maybe_complete(s, uint32_t(index));
    return true;
}

void RxDma::take_commands() {
    for (; cmds_.head != cmds_.tail; cmds_.head = cmds_.next(cmds_.head)) {
        const uint32_t* c = cmds_.entry(cmds_.head);
        uint32_t index = c[NICLAB_RXCMD_SLOT];
        if (index >= slots_.size() || !busy(index) || slots_[index].end_seen) continue;  // firmware bug: ignored
        Slot& s = slots_[index];
        Deposit d{c[NICLAB_RXCMD_DISCARD], c[NICLAB_RXCMD_LENGTH], c[NICLAB_RXCMD_TAG],
                  (uint64_t(c[NICLAB_RXCMD_ADDR_HI]) << 32) | c[NICLAB_RXCMD_ADDR_LO],
                  (c[NICLAB_RXCMD_CTRL] & NICLAB_RXCMD_END) != 0};
        s.deposits.push_back(d);
        if (d.end) {
            s.end_seen = true;
            s.tag = d.tag;
        }
        drain(s, index);
        maybe_complete(s, index);
    }
}

void RxDma::write_host(uint64_t addr, const uint8_t* data, uint32_t n, Slot& s) {
    if (addr + n > cfg_.host_memory_bytes) {
        s.host_fault = true;  // never a write outside host memory
        return;
    }
    host_write_free_ = std::max(host_write_free_, bus_.dma_write(kernel_.now(), addr, {data, n}));
    s.deposited += n;
}

void RxDma::drain(Slot& s, uint32_t) {
    while (s.buf_len > 0) {
        uint32_t chunk = std::min<uint32_t>(s.buf_len, uint32_t(s.buffer.size() - s.buf_start));  // contiguous
        if (s.deposit_next < s.deposits.size()) {
            const Deposit& d = s.deposits[s.deposit_next];
            uint64_t total = uint64_t(d.discard) + d.length;
            uint32_t n = uint32_t(std::min<uint64_t>(chunk, total - s.deposit_done));
            if (s.deposit_done < d.discard) {
                n = uint32_t(std::min<uint64_t>(n, d.discard - s.deposit_done));
            } else {
                write_host(d.addr + (s.deposit_done - d.discard), &s.buffer[s.buf_start], n, s);
            }
            s.deposit_done += n;
            if (s.deposit_done == total) {
                ++s.deposit_next;
                s.deposit_done = 0;
            }
            chunk = n;
        } else if (!(s.end_seen && s.deposit_next == s.deposits.size())) {
            return;  // waiting for the firmware's next deposit command
        }
        // (after the END command is used up, the rest of the message is discarded)
        s.buf_start = uint32_t(wrap(s.buf_start + chunk, s.buffer.size()));
        s.buf_len -= chunk;
        s.consumed += chunk;
        let_held_in();  // room again for a packet the network holds
    }
}

// The ring's last crc_pending bytes are the stream's newest, ending where the next packet
// goes: consuming bytes moves the ring's start, never that end.
void RxDma::fold_crc(Slot& s) {
    const size_t cap = s.buffer.size();
    const size_t at = (s.buf_start + s.buf_len + cap - s.crc_pending) % cap;
    const size_t first = std::min<size_t>(s.crc_pending, cap - at);
    s.crc = net::crc32(s.buffer.subspan(at, first), s.crc);
    s.crc = net::crc32(s.buffer.first(s.crc_pending - first), s.crc);
    s.crc_pending = 0;
}

bool RxDma::wanted_more(const Slot& s) {
    for (size_t i = s.deposit_next; i < s.deposits.size(); ++i) {
        uint64_t total = uint64_t(s.deposits[i].discard) + s.deposits[i].length;
        if (total > (i == s.deposit_next ? s.deposit_done : 0)) return true;
    }
    return false;
}

void RxDma::maybe_complete(Slot& s, uint32_t index) {
    if (!busy(index) || !s.end_seen || !s.tail_seen || s.consumed != s.bytes) return;
    if (cpls_.full()) return;  // retried when the firmware frees a completion entry
    fold_crc(s);
    uint32_t status = NICLAB_DMA_OK;
    if (s.host_fault) status = NICLAB_DMA_HOST_FAULT;
    else if (s.crc != s.expected_crc) status = NICLAB_DMA_CRC_ERROR;
    else if (wanted_more(s)) status = NICLAB_DMA_TRUNCATED;
    if (status == NICLAB_DMA_CRC_ERROR) ++crc_errors_;
    uint32_t* cpl = cpls_.entry(cpls_.tail);
    cpl[NICLAB_CPL_TAG] = s.tag;
    cpl[NICLAB_CPL_STATUS] = status;
    cpl[NICLAB_CPL_BYTES] = uint32_t(s.deposited);
    cpl[NICLAB_CPL_SLOT] = index;
    cpl[NICLAB_CPL_SRC] = uint32_t(keys_[index] >> 32);
    cpls_.tail = cpls_.next(cpls_.tail);
    busy_ &= ~(1u << index);
    // Published (tail and interrupt) when the engine's writes to host memory have landed;
    // host_write_free_ only grows, so completions are published in order.
    Time visible = std::max(host_write_free_, kernel_.now());
    kernel_.schedule_at(visible, [this, tail = cpls_.tail, gen = generation_] {
        if (gen != generation_) return;
        cpl_visible_tail_ = tail;
        raise_(NICLAB_IRQ_RX_DONE);
    });
    let_held_in();
}

}  // namespace niclab::seastar
