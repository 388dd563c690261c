// The RX DMA engine driven directly from C++, without firmware: packets come in through
// deliver() as the network hands them over, deposit commands go in through
// write(offset, value) exactly as firmware stores them (offsets from hw.h), and
// events and completions are read back through read().
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "niclab/fw/hw.h"
#include "niclab/host/host_memory.hpp"
#include "niclab/net/crc.hpp"
#include "niclab/net/packet.hpp"
#include "niclab/nic/packet_port.hpp"
#include "niclab/systems/seastar/rx_dma.hpp"
#include "niclab/sim/kernel.hpp"
#include "test_support.hpp"
#include "dma_test_support.hpp"

namespace niclab::test {
namespace {


// A message cut into packets as a sending TX engine cuts it.
std::vector<net::Packet> packets_of(uint32_t src, uint32_t id, const std::vector<uint8_t>& data) {
    std::vector<net::Packet> out;
    const uint32_t crc = net::crc32(data);
    size_t offset = 0;
    do {
        net::Packet p;
        p.src = src;
        p.dst = 0;
        p.message_id = id;
        p.sequence = uint16_t(out.size());
        p.head = offset == 0;
        p.message_bytes = uint32_t(data.size());
        const size_t n = std::min<size_t>(net::Packet::kMaxPayload, data.size() - offset);
        p.length = uint8_t(n);
        std::copy_n(data.begin() + std::ptrdiff_t(offset), n, p.payload.begin());
        offset += n;
        p.tail = offset == data.size();
        if (p.tail) p.message_crc = crc;
        out.push_back(p);
    } while (offset < data.size());
    return out;
}

class CountingPort : public nic::PacketPort {
public:
    bool inject(const net::Packet&) override { return false; }
    void receive_ready() override { ++receive_ready_calls; }
    int receive_ready_calls = 0;
};

struct Event {
    uint32_t slot, src, length, header_bytes;
    std::vector<uint8_t> header;
};
struct Completion {
    uint32_t tag, status, bytes, slot, src;
};

// Test suite names carry "dma" so `ctest -R dma` selects them.
class rx_dma : public ::testing::Test {
protected:
    void SetUp() override { build(); }

    void build() {
        engine.reset();
        bus = std::make_unique<bus::HyperTransport>(kernel, memory, ht);
        engine = std::make_unique<seastar::RxDma>(kernel, *bus, cfg,
                                              [this](uint32_t s) { irqs.push_back({kernel.now(), s}); });
        engine->set_port(&port);
        cmd_tail = 0;
    }

    uint32_t reg(uint32_t offset) { return engine_reg(*engine, offset); }
    void store(uint32_t offset, uint32_t v) { engine_store(*engine, offset, v); }

    // One deposit command; posted (tail written) unless `post` is false.
    void deposit(uint32_t slot, uint32_t discard, uint32_t length, uint64_t addr, uint32_t tag, bool end,
                 bool post = true) {
        const uint32_t e = NICLAB_RXDMA_CMD_RING + cmd_tail * NICLAB_RXDMA_CMD_BYTES;
        store(e + 4 * NICLAB_RXCMD_SLOT, slot);
        store(e + 4 * NICLAB_RXCMD_CTRL, end ? NICLAB_RXCMD_END : 0);
        store(e + 4 * NICLAB_RXCMD_DISCARD, discard);
        store(e + 4 * NICLAB_RXCMD_LENGTH, length);
        store(e + 4 * NICLAB_RXCMD_ADDR_LO, uint32_t(addr));
        store(e + 4 * NICLAB_RXCMD_ADDR_HI, uint32_t(addr >> 32));
        store(e + 4 * NICLAB_RXCMD_TAG, tag);
        cmd_tail = (cmd_tail + 1) % NICLAB_DMA_FIFO_ENTRIES;
        if (post) store(NICLAB_RXDMA_CMD_TAIL, cmd_tail);
    }

    Event event(uint32_t index) {
        const uint32_t e = NICLAB_RXDMA_EVT_RING + index * NICLAB_RXDMA_EVT_BYTES;
        Event ev{reg(e + 4 * NICLAB_RXEVT_SLOT), reg(e + 4 * NICLAB_RXEVT_SRC), reg(e + 4 * NICLAB_RXEVT_LENGTH),
                 reg(e + 4 * NICLAB_RXEVT_HEADER_BYTES), {}};
        for (uint32_t w = 0; w < NICLAB_PACKET_PAYLOAD / 4; ++w) {
            uint32_t v = reg(e + NICLAB_RXEVT_HEADER + 4 * w);
            for (int b = 0; b < 4; ++b) ev.header.push_back(uint8_t(v >> (8 * b)));
        }
        return ev;
    }
    Completion completion(uint32_t index) {
        const uint32_t e = NICLAB_RXDMA_CPL_RING + index * NICLAB_RXDMA_CPL_BYTES;
        return {reg(e + 4 * NICLAB_CPL_TAG), reg(e + 4 * NICLAB_CPL_STATUS), reg(e + 4 * NICLAB_CPL_BYTES),
                reg(e + 4 * NICLAB_CPL_SLOT), reg(e + 4 * NICLAB_CPL_SRC)};
    }
    size_t irq_count(uint32_t source) const {
        size_t n = 0;
        for (auto& [t, s] : irqs) n += (s & source) != 0;
        return n;
    }
    // Delivers every packet; each must be accepted.
    void deliver_all(const std::vector<net::Packet>& ps) {
        for (const net::Packet& p : ps) ASSERT_TRUE(engine->deliver(p)) << "packet " << p.sequence;
    }
    std::vector<uint8_t> host(uint64_t addr, size_t n) const {
        std::vector<uint8_t> v(n);
        memory.read(addr, v);
        return v;
    }
    void run() { kernel.run_until(Time::max(), true); }

    sim::Kernel kernel;
    host::HostMemory memory;
    seastar::DmaConfig cfg;
    bus::HyperTransportParams ht;
    std::unique_ptr<bus::HyperTransport> bus;
    CountingPort port;
    std::vector<std::pair<Time, uint32_t>> irqs;
    std::unique_ptr<seastar::RxDma> engine;
    uint32_t cmd_tail = 0;
};

TEST_F(rx_dma, HeadPacketPostsAnEventWithTheHeader) {
    auto data = pattern(200, 1);
    auto ps = packets_of(5, 0, data);
    ASSERT_TRUE(engine->deliver(ps[0]));
    EXPECT_EQ(reg(NICLAB_RXDMA_EVT_TAIL), 1u);
    Event ev = event(0);
    EXPECT_LT(ev.slot, NICLAB_RXDMA_SLOTS);
    EXPECT_EQ(ev.src, 5u);
    EXPECT_EQ(ev.length, 200u);
    EXPECT_EQ(ev.header_bytes, 64u);
    EXPECT_TRUE(std::equal(ev.header.begin(), ev.header.end(), data.begin()));
    ASSERT_EQ(irqs.size(), 1u);
    EXPECT_EQ(irqs[0].second, NICLAB_IRQ_RX_EVENT);
    EXPECT_EQ(reg(NICLAB_RXDMA_PACKETS), 1u);

    // A short message: only its bytes are valid, the rest of the copy is zero.
    auto small = pattern(10, 2);
    ASSERT_TRUE(engine->deliver(packets_of(6, 0, small)[0]));
    Event ev2 = event(1);
    EXPECT_NE(ev2.slot, ev.slot);
    EXPECT_EQ(ev2.src, 6u);
    EXPECT_EQ(ev2.length, 10u);
    EXPECT_EQ(ev2.header_bytes, 10u);
    EXPECT_TRUE(std::equal(small.begin(), small.end(), ev2.header.begin()));
    EXPECT_TRUE(std::all_of(ev2.header.begin() + 10, ev2.header.end(), [](uint8_t b) { return b == 0; }));
    EXPECT_EQ(irq_count(NICLAB_IRQ_RX_EVENT), 2u);
}

TEST_F(rx_dma, DepositCommandsDiscardWriteAndDropTheRest) {
    auto data = pattern(300, 3);
    auto ps = packets_of(2, 0, data);
    memory.fill(0x10000, 0xEE, 0x1000);
    ASSERT_TRUE(engine->deliver(ps[0]));
    const uint32_t slot = event(0).slot;
    deposit(slot, 10, 50, 0x10000, 0, false);           // skip 10, write 50
    deposit(slot, 0, 100, 0x10800 + 3, 0xCAFE, true);   // write the next 100, END
    deliver_all({ps.begin() + 1, ps.end()});
    run();

    auto a = host(0x10000, 64), b = host(0x10800, 110);
    EXPECT_TRUE(std::equal(data.begin() + 10, data.begin() + 60, a.begin()));
    EXPECT_TRUE(std::all_of(a.begin() + 50, a.end(), [](uint8_t x) { return x == 0xEE; }));
    EXPECT_TRUE(std::all_of(b.begin(), b.begin() + 3, [](uint8_t x) { return x == 0xEE; }));
    EXPECT_TRUE(std::equal(data.begin() + 60, data.begin() + 160, b.begin() + 3));
    EXPECT_TRUE(std::all_of(b.begin() + 103, b.end(), [](uint8_t x) { return x == 0xEE; }));

    ASSERT_EQ(reg(NICLAB_RXDMA_CPL_TAIL), 1u);
    Completion c = completion(0);
    EXPECT_EQ(c.tag, 0xCAFEu);
    EXPECT_EQ(c.status, NICLAB_DMA_OK);
    EXPECT_EQ(c.bytes, 150u) << "bytes written to host memory";
    EXPECT_EQ(c.slot, slot);
    EXPECT_EQ(irq_count(NICLAB_IRQ_RX_DONE), 1u);
    EXPECT_EQ(reg(NICLAB_RXDMA_CMD_HEAD), 2u);
    EXPECT_EQ(engine->packets_received(), 5u);
}

TEST_F(rx_dma, CompletionInterruptWaitsForTheHostWrites) {
    auto data = pattern(64, 4);
    auto ps = packets_of(1, 0, data);
    ASSERT_TRUE(engine->deliver(ps[0]));
    deposit(event(0).slot, 0, 64, 0x2000, 1, true);
    EXPECT_EQ(reg(NICLAB_RXDMA_CPL_TAIL), 0u) << "not visible before the data is in host memory";
    EXPECT_EQ(irq_count(NICLAB_IRQ_RX_DONE), 0u);
    run();
    ASSERT_EQ(irq_count(NICLAB_IRQ_RX_DONE), 1u);
    EXPECT_EQ(reg(NICLAB_RXDMA_CPL_TAIL), 1u) << "published with the interrupt";
    EXPECT_EQ(irqs.back().first, Time::ps(64 * 1'000'000 / 2800)) << "64 bytes at 2800 MB/s";
    EXPECT_EQ(host(0x2000, 64), data);
}

TEST_F(rx_dma, PayloadLandsInHostMemoryOnlyWhenItsBusWriteCompletes) {
    // A host that polls memory instead of waiting for the completion (StarT-X VI mode,
    // GRIM) must not see the bytes before the HyperTransport write has carried them.
    auto data = pattern(128, 5);
    auto ps = packets_of(1, 0, data);
    memory.fill(0x3000, 0xEE, 128);
    ASSERT_TRUE(engine->deliver(ps[0]));
    deposit(event(0).slot, 0, 128, 0x3000, 1, true);
    ASSERT_TRUE(engine->deliver(ps[1]));
    EXPECT_EQ(host(0x3000, 1), std::vector<uint8_t>{0xEE}) << "not in host memory when the packet arrives";
    const Time first = Time::ps(64 * 1'000'000 / 2800), second = first * 2;
    std::vector<uint8_t> at_first_minus, at_first, at_second_minus;
    kernel.schedule_at(first - Time::ps(1), [&] { at_first_minus = host(0x3000, 128); });
    kernel.schedule_at(first, [&] { at_first = host(0x3000, 128); });
    kernel.schedule_at(second - Time::ps(1), [&] { at_second_minus = host(0x3000, 128); });
    run();
    EXPECT_EQ(at_first_minus, std::vector<uint8_t>(128, 0xEE));
    EXPECT_TRUE(std::equal(data.begin(), data.begin() + 64, at_first.begin())) << "the first packet's write is done";
    EXPECT_EQ(at_first[64], 0xEE);
    EXPECT_EQ(at_second_minus[127], 0xEE);
    EXPECT_EQ(host(0x3000, 128), data);
    EXPECT_EQ(irqs.back().first, second) << "the completion with the last byte";
}

TEST_F(rx_dma, ZeroByteMessage) {
    auto ps = packets_of(3, 0, {});
    ASSERT_EQ(ps.size(), 1u);
    ASSERT_TRUE(engine->deliver(ps[0]));
    Event ev = event(0);
    EXPECT_EQ(ev.length, 0u);
    EXPECT_EQ(ev.header_bytes, 0u);
    deposit(ev.slot, 0, 0, 0x1000, 8, true);
    run();
    ASSERT_EQ(reg(NICLAB_RXDMA_CPL_TAIL), 1u);
    EXPECT_EQ(completion(0).status, NICLAB_DMA_OK);
    EXPECT_EQ(completion(0).bytes, 0u);
    EXPECT_EQ(completion(0).tag, 8u);
}

TEST_F(rx_dma, InterleavedMessagesFromSeveralSourcesLandInTheirOwnBuffers) {
    // Three sources, the same message id on each (ids are unique per source only).
    std::vector<std::vector<uint8_t>> data = {pattern(1000, 10), pattern(333, 11), pattern(777, 12)};
    std::vector<std::vector<net::Packet>> ps;
    for (uint32_t i = 0; i < 3; ++i) ps.push_back(packets_of(20 + i, 4, data[i]));
    // Heads first, commands for two of them, then round-robin packets; the third's
    // commands come last.
    for (uint32_t i = 0; i < 3; ++i) ASSERT_TRUE(engine->deliver(ps[i][0]));
    std::vector<uint32_t> slot(3);
    for (uint32_t i = 0; i < 3; ++i) {
        Event ev = event(i);
        EXPECT_EQ(ev.src, 20 + i);
        EXPECT_EQ(ev.length, data[i].size());
        slot[i] = ev.slot;
    }
    EXPECT_NE(slot[0], slot[1]);
    EXPECT_NE(slot[1], slot[2]);
    EXPECT_NE(slot[0], slot[2]);
    const uint64_t base[3] = {0x100000, 0x200000, 0x300000};
    deposit(slot[0], 0, uint32_t(data[0].size()), base[0], 100, true);
    deposit(slot[1], 0, uint32_t(data[1].size()), base[1], 101, true);
    for (size_t k = 1;; ++k) {
        bool any = false;
        for (uint32_t i = 0; i < 3; ++i)
            if (k < ps[i].size()) {
                ASSERT_TRUE(engine->deliver(ps[i][k]));
                any = true;
            }
        if (!any) break;
    }
    deposit(slot[2], 0, uint32_t(data[2].size()), base[2], 102, true);
    run();
    for (uint32_t i = 0; i < 3; ++i) EXPECT_EQ(host(base[i], data[i].size()), data[i]) << "message " << i;
    ASSERT_EQ(reg(NICLAB_RXDMA_CPL_TAIL), 3u);
    for (uint32_t c = 0; c < 3; ++c) {
        Completion cpl = completion(c);
        EXPECT_EQ(cpl.status, NICLAB_DMA_OK);
        const auto i = uint32_t(std::find(slot.begin(), slot.end(), cpl.slot) - slot.begin());
        ASSERT_LT(i, 3u);
        EXPECT_EQ(cpl.tag, 100 + i);
        EXPECT_EQ(cpl.bytes, data[i].size());
        EXPECT_EQ(cpl.src, 20 + i);  // whose message it was, though the ids are alike
    }
}

TEST_F(rx_dma, PacketsBeforeTheirCommandsAreBufferedThenRefusedBeyondTheBuffer) {
    cfg.rx_buffer_bytes = 256;  // four packets
    build();
    auto data = pattern(640, 13);
    auto ps = packets_of(9, 1, data);
    for (size_t k = 0; k < 4; ++k) ASSERT_TRUE(engine->deliver(ps[k])) << k;
    EXPECT_FALSE(engine->deliver(ps[4])) << "the slot's buffer is full";
    EXPECT_FALSE(engine->deliver(ps[4])) << "still full: the network offers it again";
    EXPECT_EQ(port.receive_ready_calls, 0);
    EXPECT_EQ(reg(NICLAB_RXDMA_PACKETS), 4u);

    deposit(event(0).slot, 0, 640, 0x4000, 3, true);
    EXPECT_EQ(port.receive_ready_calls, 1) << "the commands drained the buffer: tell the network once";
    for (size_t k = 4; k < ps.size(); ++k) ASSERT_TRUE(engine->deliver(ps[k])) << k;
    run();
    EXPECT_EQ(host(0x4000, 640), data);
    EXPECT_EQ(completion(0).status, NICLAB_DMA_OK);
    EXPECT_EQ(completion(0).bytes, 640u);
    EXPECT_EQ(reg(NICLAB_RXDMA_PACKETS), 10u);
}

TEST_F(rx_dma, CorruptedPayloadIsACrcError) {
    auto data = pattern(500, 14);
    auto ps = packets_of(4, 2, data);
    ps[3].payload[17] ^= 0x08;  // one bit, as a link without retry would pass it on
    deliver_all(ps);
    deposit(event(0).slot, 0, 500, 0x6000, 11, true);
    run();
    ASSERT_EQ(reg(NICLAB_RXDMA_CPL_TAIL), 1u);
    EXPECT_EQ(completion(0).status, NICLAB_DMA_CRC_ERROR);
    EXPECT_EQ(completion(0).tag, 11u);
    EXPECT_EQ(engine->crc_errors(), 1u);
    EXPECT_EQ(irq_count(NICLAB_IRQ_RX_DONE), 1u);

    // The next, intact message on a reused slot is fine.
    auto good = pattern(100, 15);
    deliver_all(packets_of(4, 3, good));
    deposit(event(1).slot, 0, 100, 0x7000, 12, true);
    run();
    EXPECT_EQ(completion(1).status, NICLAB_DMA_OK);
    EXPECT_EQ(host(0x7000, 100), good);
    EXPECT_EQ(engine->crc_errors(), 1u);
}

// The message CRC is folded a ring at a time (RxDma::fold_crc): with a ring that 64-byte
// packets do not divide, the folds span its wrap, and a flipped bit anywhere is still seen.
TEST_F(rx_dma, CrcFoldedAcrossTheRingsWrapSeesEveryCorruptPacket) {
    cfg.rx_buffer_bytes = 200;
    build();
    auto data = pattern(2000, 16);
    uint32_t tag = 20;
    for (size_t bad : {size_t(0), size_t(3), size_t(17), size_t(31), SIZE_MAX}) {
        auto ps = packets_of(5, uint32_t(tag), data);
        if (bad != SIZE_MAX) ps[bad].payload[bad % 16] ^= 0x40;  // the last packet carries 16 bytes
        ASSERT_TRUE(engine->deliver(ps[0]));
        deposit(event(tag - 20).slot, 0, 2000, 0x8000, tag, true);
        for (size_t k = 1; k < ps.size(); ++k) ASSERT_TRUE(engine->deliver(ps[k])) << k;
        run();
        const auto c = completion(tag - 20);
        EXPECT_EQ(c.tag, tag);
        EXPECT_EQ(c.status, bad == SIZE_MAX ? uint32_t(NICLAB_DMA_OK) : uint32_t(NICLAB_DMA_CRC_ERROR)) << "bad packet " << bad;
        if (bad == SIZE_MAX) {
            EXPECT_EQ(host(0x8000, 2000), data);
        }
        ++tag;
    }
    EXPECT_EQ(engine->crc_errors(), 4u);
}

TEST_F(rx_dma, NoFreeSlotRefusesTheHeadSignalsOnceAndResumesWhenOneFrees) {
    std::vector<std::vector<uint8_t>> data;
    for (uint32_t i = 0; i <= NICLAB_RXDMA_SLOTS; ++i) data.push_back(pattern(100, 100 + i));
    std::vector<std::vector<net::Packet>> ps;
    for (uint32_t i = 0; i <= NICLAB_RXDMA_SLOTS; ++i) ps.push_back(packets_of(i, 0, data[i]));
    for (uint32_t i = 0; i < NICLAB_RXDMA_SLOTS; ++i) ASSERT_TRUE(engine->deliver(ps[i][0])) << i;
    EXPECT_EQ(reg(NICLAB_RXDMA_EXHAUSTED), 0u);

    const net::Packet& late = ps[NICLAB_RXDMA_SLOTS][0];
    EXPECT_FALSE(engine->deliver(late));
    EXPECT_EQ(reg(NICLAB_RXDMA_EXHAUSTED), 1u);
    EXPECT_EQ(irq_count(NICLAB_IRQ_RX_EXHAUSTED), 1u);
    EXPECT_FALSE(engine->deliver(late)) << "offered again, still no slot";
    EXPECT_EQ(reg(NICLAB_RXDMA_EXHAUSTED), 1u) << "one stall counts once";
    EXPECT_EQ(irq_count(NICLAB_IRQ_RX_EXHAUSTED), 1u);
    EXPECT_EQ(reg(NICLAB_RXDMA_EVT_TAIL), NICLAB_RXDMA_SLOTS);

    // Finish message 7: its slot frees and the network is told.
    const uint32_t freed = event(7).slot;
    ASSERT_TRUE(engine->deliver(ps[7][1]));
    deposit(freed, 0, 100, 0x1000, 7, true);
    EXPECT_EQ(port.receive_ready_calls, 1);
    ASSERT_TRUE(engine->deliver(late));
    Event ev = event(NICLAB_RXDMA_SLOTS);
    EXPECT_EQ(ev.slot, freed);
    EXPECT_EQ(ev.src, NICLAB_RXDMA_SLOTS);
    ASSERT_TRUE(engine->deliver(ps[NICLAB_RXDMA_SLOTS][1]));
    deposit(ev.slot, 0, 100, 0x2000, 32, true);
    run();
    EXPECT_EQ(host(0x1000, 100), data[7]);
    EXPECT_EQ(host(0x2000, 100), data[NICLAB_RXDMA_SLOTS]);
    ASSERT_EQ(reg(NICLAB_RXDMA_CPL_TAIL), 2u);
    EXPECT_EQ(completion(1).tag, 32u);
    EXPECT_EQ(completion(1).status, NICLAB_DMA_OK);

    // A second stall is counted and signalled again: one slot is free, take it, then
    // the next new message finds none.
    ASSERT_TRUE(engine->deliver(packets_of(98, 0, pattern(10, 1))[0]));
    auto more = packets_of(99, 0, pattern(10, 1));
    EXPECT_FALSE(engine->deliver(more[0]));
    EXPECT_EQ(reg(NICLAB_RXDMA_EXHAUSTED), 2u);
    EXPECT_EQ(irq_count(NICLAB_IRQ_RX_EXHAUSTED), 2u);
}

TEST_F(rx_dma, CommandsAskingForMoreThanTheMessageHasAreTruncated) {
    auto data = pattern(100, 16);
    deliver_all(packets_of(1, 0, data));
    const uint32_t slot = event(0).slot;
    deposit(slot, 0, 60, 0x1000, 0, false);
    deposit(slot, 0, 60, 0x2000, 21, true);  // only 40 of these 60 exist
    run();
    ASSERT_EQ(reg(NICLAB_RXDMA_CPL_TAIL), 1u);
    EXPECT_EQ(completion(0).status, NICLAB_DMA_TRUNCATED);
    EXPECT_EQ(completion(0).bytes, 100u);
    EXPECT_EQ(completion(0).tag, 21u);
    auto a = host(0x1000, 60), b = host(0x2000, 40);
    EXPECT_TRUE(std::equal(a.begin(), a.end(), data.begin()));
    EXPECT_TRUE(std::equal(b.begin(), b.end(), data.begin() + 60));
}

TEST_F(rx_dma, AddressBeyondHostMemoryIsAHostFaultAndWritesNothing) {
    cfg.host_memory_bytes = 1 << 20;
    build();
    auto data = pattern(200, 17);
    deliver_all(packets_of(1, 0, data));
    deposit(event(0).slot, 0, 200, (1 << 20) + 0x100, 5, true);
    run();
    ASSERT_EQ(reg(NICLAB_RXDMA_CPL_TAIL), 1u);
    EXPECT_EQ(completion(0).status, NICLAB_DMA_HOST_FAULT);
    EXPECT_EQ(completion(0).bytes, 0u);
    EXPECT_EQ(memory.pages_touched(), 0u) << "host memory unchanged";

    // A buffer that straddles the end: nothing at or beyond the end is written.
    deliver_all(packets_of(1, 1, data));
    deposit(event(1).slot, 0, 200, (1 << 20) - 100, 6, true);
    run();
    EXPECT_EQ(completion(1).status, NICLAB_DMA_HOST_FAULT);
    auto beyond = host(1 << 20, 100);
    EXPECT_TRUE(std::all_of(beyond.begin(), beyond.end(), [](uint8_t b) { return b == 0; }));
    EXPECT_LT(completion(1).bytes, 100u);
}

TEST_F(rx_dma, CompletionsWaitForRoomInTheCompletionFifo) {
    // 63 completions fill the FIFO; the 64th message's completion waits for the firmware.
    for (uint32_t i = 0; i < 64; ++i) {
        deliver_all(packets_of(1, i, pattern(8, i)));
        store(NICLAB_RXDMA_EVT_HEAD, (i + 1) % NICLAB_DMA_FIFO_ENTRIES);
        deposit(event(i % NICLAB_DMA_FIFO_ENTRIES).slot, 0, 8, 0x1000 + 16 * i, 1000 + i, true);
    }
    run();
    EXPECT_EQ(reg(NICLAB_RXDMA_CPL_TAIL), 63u);
    store(NICLAB_RXDMA_CPL_HEAD, 1);
    run();
    EXPECT_EQ(reg(NICLAB_RXDMA_CPL_TAIL), 0u) << "posted once there was room; the tail wrapped";
    EXPECT_EQ(completion(63).tag, 1063u);
    EXPECT_EQ(host(0x1000 + 16 * 63, 8), pattern(8, 63));
}

TEST_F(rx_dma, AFullEventFifoRefusesANewMessageUntilTheFirmwareConsumesEvents) {
    // Firmware that reads events in place and retires them lazily: 63 messages complete
    // while their events stay in the FIFO, so it is full although slots are free.
    for (uint32_t i = 0; i < 63; ++i) {
        deliver_all(packets_of(1, i, pattern(8, i)));
        deposit(event(i).slot, 0, 8, 0x1000 + 16 * i, i, true);
        store(NICLAB_RXDMA_CPL_HEAD, reg(NICLAB_RXDMA_CPL_TAIL));
    }
    auto late = packets_of(2, 0, pattern(8, 99));
    EXPECT_FALSE(engine->deliver(late[0])) << "no room for its event";
    EXPECT_EQ(irq_count(NICLAB_IRQ_RX_EXHAUSTED), 1u);
    const int before = port.receive_ready_calls;
    store(NICLAB_RXDMA_EVT_HEAD, 63);  // the firmware retires every event
    EXPECT_GT(port.receive_ready_calls, before) << "the network must be told there is room again";
    ASSERT_TRUE(engine->deliver(late[0]));
    EXPECT_EQ(event(63).src, 2u);
}

}  // namespace
}  // namespace niclab::test
