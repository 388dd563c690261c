// The LANai NIC's engines and its PCI window (lanai.hpp, lanai.h).
#include "niclab/systems/grim/lanai.hpp"

#include <algorithm>
#include <cstring>

#include "niclab/fw/lanai.h"
#include "niclab/systems/grim/crc8.hpp"

namespace niclab::grim {

namespace {
nic::EmbeddedNicConfig embedded_config(const LanaiConfig& cfg) {
    nic::EmbeddedNicConfig c = cfg.embedded;
    c.sram.cached_base = LANAI_SRAM_CACHED_BASE;
    c.sram.uncached_base = LANAI_SRAM_UNCACHED_BASE;
    c.control_base = NICLAB_CTRL_BASE;
    return c;
}
}  // namespace

LanaiNic::LanaiNic(sim::Kernel& kernel, const LanaiConfig& cfg, bus::PciBus& bus, net::Network* network)
    : cfg_(cfg), bus_(bus), network_(network), nic_(kernel, embedded_config(cfg)), host_dma_(*this), send_(*this), recv_(*this) {
    cfg_.embedded = nic_.config();
    nic::MemoryMap& map = nic_.memory_map();
    map.map(LANAI_HDMA_BASE, LANAI_HDMA_SIZE, host_dma_);
    map.map(LANAI_SEND_BASE, LANAI_SEND_SIZE, send_);
    map.map(LANAI_RECV_BASE, LANAI_RECV_SIZE, recv_);
    bus_.map(cfg_.pci_base, cfg_.embedded.sram.size, *this);
    if (network_) network_->attach(node(), this);
}

LanaiNic::~LanaiNic() {
    if (network_) network_->attach(node(), nullptr);
}

void LanaiNic::pci_write(uint64_t offset, std::span<const uint8_t> data, Time) {
    nic_.write_sram(cfg_.embedded.sram.uncached_base + uint32_t(offset), data);
    raise(NICLAB_IRQ_DOORBELL);
}

void LanaiNic::pci_read(uint64_t offset, std::span<uint8_t> out, Time) {
    nic_.read_sram(cfg_.embedded.sram.uncached_base + uint32_t(offset), out);
}

// ---- host DMA ----

bool HostDma::read(uint32_t offset, uint32_t& value) {
    switch (offset) {
        case LANAI_HDMA_HOST_ADDR: value = host_addr_; return true;
        case LANAI_HDMA_SRAM_OFFSET: value = sram_offset_; return true;
        case LANAI_HDMA_LENGTH: value = length_; return true;
        case LANAI_HDMA_STATUS: value = status_; return true;
        case LANAI_HDMA_DONE: value = done_; return true;
    }
    return false;
}

bool HostDma::write(uint32_t offset, uint32_t value) {
    switch (offset) {
        case LANAI_HDMA_HOST_ADDR: host_addr_ = value; return true;
        case LANAI_HDMA_SRAM_OFFSET: sram_offset_ = value; return true;
        case LANAI_HDMA_LENGTH: length_ = value; return true;
        case LANAI_HDMA_CTRL: start(value); return true;
    }
    return false;
}

void HostDma::reset() {
    ++generation_;
    host_addr_ = sram_offset_ = length_ = status_ = done_ = 0;
}

void HostDma::start(uint32_t ctrl) {
    const bool to_host = ctrl == LANAI_HDMA_TO_HOST;
    // A second start while busy, an unknown direction or SRAM out of range is the
    // firmware's error: the engine refuses it and says so in its status.
    if ((status_ & LANAI_DMA_BUSY) || (!to_host && ctrl != LANAI_HDMA_FROM_HOST) || !nic_.in_sram(sram_offset_, length_)) {
        status_ = LANAI_DMA_ERROR;
        nic_.raise(LANAI_IRQ_HDMA_DONE);
        return;
    }
    status_ = LANAI_DMA_BUSY;
    buffer_.resize(length_);  // capacity kept: no allocation once the largest size was seen
    if (to_host) nic_.nic_.read_sram(nic_.cfg_.embedded.sram.uncached_base + sram_offset_, buffer_);
    const uint64_t gen = generation_;
    nic_.nic_.kernel().schedule_in(nic_.cfg_.pci_dma_setup, [this, to_host, gen] {
        if (gen != generation_) return;
        if (to_host) {
            nic_.bus_.dma_write(host_addr_, buffer_, [this, gen] { finish(true, gen); });
        } else {
            nic_.bus_.dma_read(host_addr_, buffer_, [this, gen] { finish(false, gen); });
        }
    });
}

void HostDma::finish(bool to_host, uint64_t gen) {
    if (gen != generation_) return;
    if (!to_host) nic_.nic_.write_sram(nic_.cfg_.embedded.sram.uncached_base + sram_offset_, buffer_);
    status_ = 0;
    ++done_;
    ++transfers_;
    bytes_ += length_;
    nic_.raise(LANAI_IRQ_HDMA_DONE);
    if (to_host && nic_.host_write_hook_) nic_.host_write_hook_();
}

// ---- network send ----

bool NetSend::read(uint32_t offset, uint32_t& value) {
    switch (offset) {
        case LANAI_SEND_SRAM_OFFSET: value = sram_offset_; return true;
        case LANAI_SEND_LENGTH: value = length_; return true;
        case LANAI_SEND_DEST: value = dest_; return true;
        case LANAI_SEND_ROUTE: value = route_; return true;
        case LANAI_SEND_ROUTE_LENGTH: value = route_length_; return true;
        case LANAI_SEND_STATUS: value = status_; return true;
        case LANAI_SEND_DONE: value = done_; return true;
        case LANAI_SEND_AVAIL: value = avail_; return true;
    }
    return false;
}

bool NetSend::write(uint32_t offset, uint32_t value) {
    switch (offset) {
        case LANAI_SEND_SRAM_OFFSET: sram_offset_ = value; return true;
        case LANAI_SEND_LENGTH: length_ = value; return true;
        case LANAI_SEND_DEST: dest_ = value; return true;
        case LANAI_SEND_ROUTE: route_ = value; return true;
        case LANAI_SEND_ROUTE_LENGTH: route_length_ = value; return true;
        case LANAI_SEND_AVAIL:
            if (!(status_ & LANAI_DMA_BUSY)) {
                avail_ = value;  // for the next GO_PARTIAL
            } else if (partial_) {
                // More of a partial send is in SRAM: a held worm goes on.
                avail_ = std::clamp(value, avail_, length_);
                if (pumping_) pump();
            }
            return true;
        case LANAI_SEND_GO: {
            if (status_ & LANAI_DMA_BUSY) return true;  // ignored, as a busy engine would
            if (!nic_.network_ || dest_ >= nic_.network_->nodes() || route_length_ > LANAI_ROUTE_MAX ||
                !nic_.in_sram(sram_offset_, length_) || length_ == 0 || (value != 1 && value != LANAI_SEND_GO_PARTIAL)) {
                status_ = LANAI_DMA_ERROR;
                return true;
            }
            status_ = LANAI_DMA_BUSY;
            message_.resize(length_);
            partial_ = value == LANAI_SEND_GO_PARTIAL;
            if (partial_) {
                avail_ = std::min(avail_, length_);  // the firmware set AVAIL before GO
            } else {
                avail_ = length_;
                nic_.nic_.read_sram(nic_.cfg_.embedded.sram.uncached_base + sram_offset_, message_);
            }
            sent_ = 0;
            sequence_ = 0;
            ++message_id_;
            const uint64_t gen = generation_;
            nic_.nic_.kernel().schedule_in(nic_.cfg_.san_dma_setup, [this, gen] {
                if (gen != generation_) return;
                pumping_ = true;
                pump();
            });
            return true;
        }
    }
    return false;
}

void NetSend::reset() {
    ++generation_;
    pumping_ = partial_ = false;
    sram_offset_ = length_ = dest_ = route_ = route_length_ = status_ = done_ = avail_ = 0;
}

void NetSend::pump() {
    if (!pumping_) return;
    net::Network& net = *nic_.network_;
    // Myrinet sends a message as one worm; the modelled network carries packets of up
    // to its max_payload, so the engine cuts the message and leads every packet with
    // the route (each switch takes its byte off the front).
    static thread_local net::BasicPacket<net::PacketHeader::kMaxPayloadLimit> pkt;
    const uint32_t room = net.params().max_payload - route_length_;
    while (sent_ < length_) {
        if (sent_ == avail_) return;  // a partial send waits for AVAIL (the worm is held)
        const uint32_t n = std::min(room, avail_ - sent_);
        if (partial_)  // the bytes as they are in SRAM now: the host has put them there
            nic_.nic_.read_sram(nic_.cfg_.embedded.sram.uncached_base + sram_offset_ + sent_, std::span(message_.data() + sent_, n));
        static_cast<net::PacketHeader&>(pkt) = net::PacketHeader{};
        pkt.src = nic_.node();
        pkt.dst = dest_;
        pkt.message_id = message_id_;
        pkt.sequence = sequence_;
        pkt.head = sent_ == 0;
        pkt.tail = sent_ + n == length_;
        pkt.length = uint16_t(route_length_ + n);
        pkt.message_bytes = length_;
        pkt.route_bytes = uint8_t(route_length_);
        for (uint32_t i = 0; i < route_length_; ++i) pkt.payload[i] = uint8_t(route_ >> (8 * i));
        std::memcpy(pkt.payload.data() + route_length_, message_.data() + sent_, n);
        // Myrinet's CRC-8 trails every packet (crc8.hpp); the header's end-to-end CRC
        // field carries it: the network only carries that field.
        pkt.message_crc = myrinet_crc8(std::span<const uint8_t>(message_.data() + sent_, n));
        if (!net.inject(nic_.node(), pkt)) return;  // injection_ready() resumes
        sent_ += n;
        ++sequence_;
        ++packets_;
    }
    pumping_ = false;
    status_ = 0;
    ++done_;
    ++messages_;
    nic_.raise(LANAI_IRQ_SEND_DONE);
}

// ---- network receive ----

bool NetRecv::read(uint32_t offset, uint32_t& value) {
    switch (offset) {
        case LANAI_RECV_RING_OFFSET: value = ring_; return true;
        case LANAI_RECV_RING_BYTES: value = ring_bytes_; return true;
        case LANAI_RECV_ENABLE: value = enabled_; return true;
        case LANAI_RECV_HEAD: value = head_; return true;
        case LANAI_RECV_TAIL: value = tail_; return true;
        case LANAI_RECV_MESSAGES: value = uint32_t(completed_); return true;
        case LANAI_RECV_PROGRESS_IRQ: value = progress_irq_; return true;
        case LANAI_RECV_CRC_ERRORS: value = crc_errors_reg_; return true;
    }
    return false;
}

bool NetRecv::write(uint32_t offset, uint32_t value) {
    switch (offset) {
        case LANAI_RECV_RING_OFFSET: ring_ = value & ~15u; return true;
        case LANAI_RECV_RING_BYTES: ring_bytes_ = value & ~15u; return true;
        case LANAI_RECV_ENABLE:
            enabled_ = value != 0 && ring_bytes_ >= 64 && nic_.in_sram(ring_, ring_bytes_);
            if (enabled_ && nic_.network_) nic_.network_->endpoint_ready(nic_.node());
            return true;
        case LANAI_RECV_PROGRESS_IRQ: progress_irq_ = value != 0; return true;
        case LANAI_RECV_HEAD:
            head_ = value;
            if (refused_ && nic_.network_) {
                refused_ = false;
                nic_.network_->endpoint_ready(nic_.node());  // room again: offer what waits
            }
            return true;
    }
    return false;
}

void NetRecv::reset() {
    ring_ = ring_bytes_ = head_ = tail_ = 0;
    enabled_ = progress_irq_ = false;
    for (auto& a : assembly_) a = Assembly{};
    completed_ = 0;
    crc_errors_reg_ = 0;
}

bool NetRecv::deliver(const net::PacketView& p) {
    auto refuse = [this] {
        refused_ = true;
        ++refusals_;
        return false;
    };
    if (!enabled_) return refuse();
    if (assembly_.size() <= p.src) assembly_.resize(nic_.network_ ? nic_.network_->nodes() : p.src + 1);
    Assembly& a = assembly_[p.src];
    const uint32_t base = nic_.cfg_.embedded.sram.uncached_base;
    auto put_word = [&](uint32_t off, uint32_t v) { nic_.nic_.poke32(base + off, v); };
    if (p.head) {
        // Claim the message's room when its head arrives; the network holds the worm
        // (and what follows it) while the ring has none.
        const uint32_t claim = LANAI_RECV_SLOT_BYTES(p.message_bytes);
        uint32_t pos = tail_ % ring_bytes_;
        const uint32_t skip = pos + claim > ring_bytes_ ? ring_bytes_ - pos : 0;
        if (claim + skip > ring_bytes_ - (tail_ - head_)) return refuse();
        if (skip) {
            put_word(ring_ + pos + 4 * LANAI_RECV_DESC_SOURCE, 0);
            put_word(ring_ + pos + 4 * LANAI_RECV_DESC_LENGTH, 0);
            put_word(ring_ + pos + 4 * LANAI_RECV_DESC_FLAGS, LANAI_RECV_COMPLETE | LANAI_RECV_WRAP);
            tail_ += skip;
            pos = 0;
        }
        a = Assembly{true, ring_ + pos, 0, p.message_bytes};
        put_word(a.desc + 4 * LANAI_RECV_DESC_FLAGS, 0);
        put_word(a.desc + 4 * LANAI_RECV_DESC_SOURCE, p.src);
        put_word(a.desc + 4 * LANAI_RECV_DESC_LENGTH, p.message_bytes);
        put_word(a.desc + 4 * LANAI_RECV_DESC_RECEIVED, 0);
        tail_ += claim;
    }
    if (!a.active || a.received + p.payload.size() > a.total) {
        ++refusals_;  // a packet without its head: counted, dropped (cannot happen on an in-order route)
        return true;
    }
    nic_.nic_.write_sram(base + a.desc + LANAI_RECV_DESC_BYTES + a.received, p.payload);
    a.received += uint32_t(p.payload.size());
    // The packet's CRC-8 against its bytes as they came (a bit flipped on a link with
    // retry off is in them): a bad packet makes its whole message bad. The flag is
    // written before RECEIVED, so a firmware that sees the bytes sees the flag.
    if (myrinet_crc8(p.payload) != uint8_t(p.message_crc)) {
        ++crc_errors_;
        ++crc_errors_reg_;
        if (!a.bad) put_word(a.desc + 4 * LANAI_RECV_DESC_FLAGS, LANAI_RECV_CRC_BAD);
        a.bad = true;
    }
    put_word(a.desc + 4 * LANAI_RECV_DESC_RECEIVED, a.received);
    if (!p.tail && progress_irq_) nic_.raise(LANAI_IRQ_RECV);
    if (p.tail) {
        put_word(a.desc + 4 * LANAI_RECV_DESC_FLAGS, LANAI_RECV_COMPLETE | (a.bad ? LANAI_RECV_CRC_BAD : 0));
        a.active = false;
        ++completed_;
        ++messages_;
        nic_.raise(LANAI_IRQ_RECV);
    }
    return true;
}

}  // namespace niclab::grim
