// The StarT-X NIU: construction, the register map (PCI target side), the status word and
// the driver's control page.
#include <cmath>
#include <string>
#include <utility>

#include "niclab/systems/startx/le_word.hpp"
#include "niclab/systems/startx/niu.hpp"

namespace niclab::startx {

Niu::Niu(sim::Kernel& kernel, bus::PciBus& bus, NetworkPort& port, NiuParams params)
    : kernel_(kernel), bus_(bus), port_(port), params_(params) {
    params_.validate();
    port_.attach(*this);
}

Time Niu::sync_time() const {
    return Time::ps(std::llround(double(params_.sync_cycles) * 1e12 / params_.queue_clock_hz));
}

Time Niu::link_time(const WireMessage& m) const {
    const double cycles = std::ceil(double(m.link_bytes()) / params_.link_width_bytes);
    return Time::ps(std::llround(cycles * 1e12 / params_.link_clock_hz));
}

uint32_t Niu::tx_space(Priority p) const { return params_.queue_messages - tx_[uint32_t(p)].used(); }

uint32_t Niu::tx_partial_words(Priority p) const {
    const TxQueue& q = tx_[uint32_t(p)];
    return q.expected ? q.partial.n_words : 0;
}

uint32_t Niu::rx_messages(Priority p) const {
    const RxQueue& q = rx_[uint32_t(p)];
    uint32_t n = 0;
    while (n < q.messages.size() && q.messages[n].visible_at <= kernel_.now()) ++n;
    if (n > 0 && q.read_words > 0) --n;  // the head is being read: no longer waiting whole
    return n;
}

Status Niu::status() const {
    Status s;
    for (uint32_t p = 0; p < kPriorities; ++p) {
        s.tx_space[p] = uint8_t(tx_space(Priority(p)));
        s.rx_count[p] = uint8_t(std::min(rx_messages(Priority(p)), params_.rx_count_saturation));
    }
    s.tx_dma_busy = tx_dma_busy();
    s.vi_rx_armed = vi_rx_.armed;
    s.vi_rx_exhausted = vi_rx_.exhausted;
    s.rdma_window_open = window_.open;
    s.rdma_window_done = window_.done;
    s.rdma_tx_active = rdma_tx_active();
    return s;
}

void Niu::set_rx_interrupt(host::InterruptHandler handler) {
    rx_interrupt_ = std::move(handler);
    rx_interrupt_enabled_ = static_cast<bool>(rx_interrupt_);
    control_[uint32_t(ControlWord::control)] = rx_interrupt_enabled_ ? 1u : 0u;
}

// A posted write: an error in it has no process to go to, so it faults the NIU.
void Niu::pci_write(uint64_t offset, std::span<const uint8_t> data, Time /*at*/) {
    guarded([&] {
        const auto page = static_cast<uint32_t>(offset / params_.page_bytes);
        for (std::size_t i = 0; i + 4 <= data.size(); i += 4) {
            const uint32_t w = load_le32(data.data() + i);
            switch (Reg(page)) {
            case Reg::tx_high:
            case Reg::tx_low:
                ++counters_.words_written;
                push_word(page == 0 ? Priority::high : Priority::low, w, false);
                break;
            case Reg::rdma_header0: tx_dma_.header0 = w; break;
            case Reg::rdma_header1: tx_dma_.header1 = w; break;
            case Reg::control:
                write_control(static_cast<uint32_t>((offset % params_.page_bytes + i) / 4), w);
                break;
            default:
                throw DriverError("node " + std::to_string(params_.node_id) + ": write to register page " +
                                  std::to_string(page) + ", which is read-only or unmapped");
            }
        }
    });
}

void Niu::pci_read(uint64_t offset, std::span<uint8_t> out, Time /*at*/) {
    const auto page = static_cast<uint32_t>(offset / params_.page_bytes);
    for (std::size_t i = 0; i + 4 <= out.size(); i += 4) {
        uint32_t w = 0;
        switch (Reg(page)) {
        case Reg::rx_high: w = read_rx_word(Priority::high); break;
        case Reg::rx_low: w = read_rx_word(Priority::low); break;
        case Reg::status:
            if (i == 0) ++counters_.status_reads;
            w = status().pack();
            break;
        case Reg::control: {
            const auto idx = static_cast<uint32_t>((offset % params_.page_bytes + i) / 4);
            if (idx >= control_.size())
                throw DriverError("read of unknown control register " + std::to_string(idx));
            w = control_[idx];
            break;
        }
        default:
            throw DriverError("node " + std::to_string(params_.node_id) + ": read of register page " +
                              std::to_string(page) + ", which is write-only or unmapped");
        }
        store_le32(out.data() + i, w);
    }
}

bool Niu::read_may_follow_stall(uint64_t, std::size_t) const { return true; }

void Niu::write_control(uint32_t idx, uint32_t v) {
    if (idx >= control_.size())
        throw DriverError("write to unknown control register " + std::to_string(idx));
    control_[idx] = v;
    auto addr = [&](ControlWord lo, ControlWord hi) {
        return uint64_t(control_[uint32_t(lo)]) | uint64_t(control_[uint32_t(hi)]) << 32;
    };
    switch (ControlWord(idx)) {
    case ControlWord::control: rx_interrupt_enabled_ = (v & 1) && rx_interrupt_; break;
    case ControlWord::tx_dma_bytes:
        vi_transmit(addr(ControlWord::tx_dma_addr_lo, ControlWord::tx_dma_addr_hi), v);
        break;
    case ControlWord::rx_dma_size:
        if (v) vi_arm_receive(addr(ControlWord::rx_dma_base_lo, ControlWord::rx_dma_base_hi), v);
        else vi_disarm_receive();
        break;
    case ControlWord::rdma_tx_bytes:
        rdma_transmit(addr(ControlWord::tx_dma_addr_lo, ControlWord::tx_dma_addr_hi), v);
        break;
    case ControlWord::rdma_window_size:
        if (v)
            rdma_open_window(addr(ControlWord::rdma_window_base_lo, ControlWord::rdma_window_base_hi), v,
                             control_[uint32_t(ControlWord::rdma_window_sender)]);
        else
            rdma_close_window();
        break;
    default: break;  // address and sender words only latch their value
    }
}

}  // namespace niclab::startx
