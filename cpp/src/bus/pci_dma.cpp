// Bus-master DMA: transfers split into bursts of dma_burst_bytes, each arbitrating for
// the bus on its own (so PIO and other DMA interleave). Reads take host memory as each
// burst runs; writes land in host memory only when their burst completes. Each read
// burst asks whether the bridge's prefetch stream still covers it (pci.hpp).
#include <algorithm>
#include <cstring>
#include <utility>

#include "niclab/bus/pci.hpp"
#include "niclab/sim/activity.hpp"

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
    request_burst(i, kernel_.now());
}

void PciBus::dma_write(uint64_t addr, std::span<const uint8_t> data, Done done) {
    const uint32_t i = alloc_dma(true, addr, data.size(), std::move(done));
    dma_[i].buffer.assign(data.begin(), data.end());  // capacity is kept across transfers
    request_burst(i, kernel_.now());
}

void PciBus::request_burst(uint32_t i, Time earliest, bool last_act) {
    DmaOp& op = dma_[i];
    if (op.moved == op.length) {  // empty transfer: complete at once, still from an event
        kernel_.schedule_at(earliest, [this, i] { burst_done(i, 0); });
        return;
    }
    const auto n = static_cast<uint32_t>(std::min<uint64_t>(params_.dma_burst_bytes, op.length - op.moved));
    if (!op.write) {
        // The bridge prefetches a sequential stream: only a burst it does not cover waits
        // for host memory, after the writes posted before it reached memory.
        const uint64_t at = op.addr + op.moved;
        op.prefetched = at == dma_stream_end_;
        if (!op.prefetched) {
            earliest = std::max(earliest, last_dma_write_end_) + params_.dma_read_latency;
            ++counters_.dma_read_fetches;
        }
        dma_stream_end_ = at + n;
    }
    request(Kind::dma_burst, i, earliest, burst_time(n), last_act);
}

void PciBus::grant_burst(uint32_t i, Time start) {
    const DmaOp& op = dma_[i];
    const auto n = static_cast<uint32_t>(std::min<uint64_t>(params_.dma_burst_bytes, op.length - op.moved));
    ++counters_.dma_bursts;
    const Time end = start + burst_time(n);
    if (sim::ActivityLog* log = kernel_.activity())
        log->record(op.write ? sim::Activity::BusDmaWrite : sim::Activity::BusDmaRead, cpu_.node(), start, end);
    if (op.write) {
        last_dma_write_end_ = end;
        if (params_.dma_write_ends_read_prefetch) end_read_prefetch(end);
    }
    kernel_.schedule_at(end, [this, i, n] { burst_done(i, n); });
}

// A write burst went on the bus: the prefetched data is gone. A read burst already waiting
// on the prefetch stream is retried by the bridge and fetches afresh once the write is in
// memory; one already fetching (a delayed read latched before the write) keeps its time.
void PciBus::end_read_prefetch(Time write_end) {
    if (dma_stream_end_ == UINT64_MAX) return;
    dma_stream_end_ = UINT64_MAX;
    ++counters_.prefetch_discards;
    for (Request& r : pending_) {
        if (r.kind != Kind::dma_burst) continue;
        DmaOp& op = dma_[r.id];
        if (op.write || !op.prefetched) continue;
        op.prefetched = false;
        r.earliest = std::max(r.earliest, write_end) + params_.dma_read_latency;
        ++counters_.dma_read_fetches;
        // Its fetch starts a new stream at its own address.
        dma_stream_end_ = op.addr + op.moved + std::min<uint64_t>(params_.dma_burst_bytes, op.length - op.moved);
    }
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
    if (op.moved < op.length) return request_burst(i, kernel_.now(), true);  // the last act of its event
    Done done = std::move(op.done);
    op.in_use = false;
    if (done) done();
}

}  // namespace niclab::bus
