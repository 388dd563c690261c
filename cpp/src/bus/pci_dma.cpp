// Bus-master DMA: transfers split into bursts of dma_burst_bytes, each arbitrating for
// the bus on its own (so PIO and other DMA interleave). Reads take host memory as each
// burst runs; writes land in host memory only when their burst completes.
#include <algorithm>
#include <cstring>
#include <utility>

#include "niclab/bus/pci.hpp"

namespace niclab::bus {

uint32_t PciBus::alloc_dma(bool write, uint64_t addr, uint64_t length, Done done) {
    uint32_t i = 0;
    while (i < dma_.size() && dma_[i].in_use) ++i;
    if (i == dma_.size()) dma_.emplace_back();
    DmaOp& op = dma_[i];
    op.in_use = true;
    op.write = write;
    op.addr = addr;
    op.length = length;
    op.moved = 0;
    op.out = nullptr;
    op.done = std::move(done);
    return i;
}

void PciBus::dma_read(uint64_t addr, std::span<uint8_t> out, Done done) {
    const uint32_t i = alloc_dma(false, addr, out.size(), std::move(done));
    dma_[i].out = out.data();
    // The bridge prefetches a sequential stream: only a read that does not continue where
    // the last one ended waits for host memory.
    Time earliest = kernel_.now();
    if (addr != dma_stream_end_) earliest += params_.dma_read_latency;
    dma_stream_end_ = addr + out.size();
    request_burst(i, earliest);
}

void PciBus::dma_write(uint64_t addr, std::span<const uint8_t> data, Done done) {
    const uint32_t i = alloc_dma(true, addr, data.size(), std::move(done));
    dma_[i].buffer.assign(data.begin(), data.end());  // capacity is kept across transfers
    request_burst(i, kernel_.now());
}

void PciBus::request_burst(uint32_t i, Time earliest) {
    DmaOp& op = dma_[i];
    if (op.moved == op.length) {  // empty transfer: complete at once, still from an event
        kernel_.schedule_at(earliest, [this, i] { burst_done(i, 0); });
        return;
    }
    const auto n = static_cast<uint32_t>(std::min<uint64_t>(params_.dma_burst_bytes, op.length - op.moved));
    request(Kind::dma_burst, i, earliest, params_.dma_burst_occupancy(n));
}

void PciBus::grant_burst(uint32_t i, Time start) {
    const DmaOp& op = dma_[i];
    const auto n = static_cast<uint32_t>(std::min<uint64_t>(params_.dma_burst_bytes, op.length - op.moved));
    ++counters_.dma_bursts;
    kernel_.schedule_at(start + params_.dma_burst_occupancy(n), [this, i, n] { burst_done(i, n); });
}

void PciBus::burst_done(uint32_t i, uint32_t n) {
    DmaOp& op = dma_[i];
    if (n > 0) {
        if (op.write) {
            memory_.write(op.addr + op.moved, std::span<const uint8_t>(op.buffer.data() + op.moved, n));
            counters_.bytes_dma_written += n;
        } else {
            memory_.read(op.addr + op.moved, std::span<uint8_t>(op.out + op.moved, n));
            counters_.bytes_dma_read += n;
        }
        op.moved += n;
    }
    if (op.moved < op.length) return request_burst(i, kernel_.now());
    Done done = std::move(op.done);
    op.in_use = false;
    if (done) done();
}

}  // namespace niclab::bus
