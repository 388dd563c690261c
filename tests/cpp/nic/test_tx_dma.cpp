// The TX DMA engine driven directly from C++, without firmware: commands go in through
// write(offset, value) exactly as firmware stores them (ring entries, then the tail
// register, offsets from hw.h), packets come out of a recording PacketPort.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "niclab/fw/hw.h"
#include "niclab/host/host_memory.hpp"
#include "niclab/net/crc.hpp"
#include "niclab/net/packet.hpp"
#include "niclab/nic/packet_port.hpp"
#include "niclab/systems/seastar/tx_dma.hpp"
#include "niclab/sim/kernel.hpp"
#include "test_support.hpp"
#include "dma_test_support.hpp"

namespace niclab::test {
namespace {

constexpr uint32_t kNode = 7;


// Records what the engine injects; refuses once `accept_limit` packets are in.
class RecordingPort : public nic::PacketPort {
public:
    explicit RecordingPort(sim::Kernel& k) : kernel_(k) {}
    bool inject(const net::Packet& p) override {
        if (packets.size() >= accept_limit) {
            ++refused;
            return false;
        }
        packets.push_back(p);
        times.push_back(kernel_.now());
        return true;
    }
    // With `ahead`, every injection ahead is taken (as a network with credits to spare).
    bool inject_ahead(const net::Packet& p, Time at) override {
        if (!ahead) return false;
        packets.push_back(p);
        times.push_back(at);
        ++taken_ahead;
        return true;
    }
    void receive_ready() override {}
    bool ahead = false;
    uint64_t taken_ahead = 0;

    std::vector<net::Packet> packets;
    std::vector<Time> times;
    size_t accept_limit = std::numeric_limits<size_t>::max();
    uint64_t refused = 0;

private:
    sim::Kernel& kernel_;
};

struct Completion {
    uint32_t tag, status, bytes;
};

// Test suite names carry "dma" so `ctest -R dma` selects them.
class tx_dma : public ::testing::Test {
protected:
    void SetUp() override { build(); }

    // Builds (or rebuilds) the engine from `cfg`.
    void build() {
        engine.reset();
        bus = std::make_unique<bus::HyperTransport>(kernel, memory, ht);
        engine = std::make_unique<seastar::TxDma>(kernel, *bus, cfg, kNode,
                                              [this](uint32_t s) { irqs.push_back({kernel.now(), s}); });
        engine->set_port(&port);
        tail = 0;
    }

    uint32_t reg(uint32_t offset) { return engine_reg(*engine, offset); }
    void store(uint32_t offset, uint32_t v) { engine_store(*engine, offset, v); }

    // One command into the next ring entry; the tail moves only on ring().
    void command(uint32_t ctrl, uint32_t dst, uint32_t length, uint64_t addr, uint32_t tag) {
        const uint32_t e = NICLAB_TXDMA_CMD_RING + tail * NICLAB_TXDMA_CMD_BYTES;
        store(e + 4 * NICLAB_TXCMD_CTRL, ctrl);
        store(e + 4 * NICLAB_TXCMD_DST, dst);
        store(e + 4 * NICLAB_TXCMD_LENGTH, length);
        store(e + 4 * NICLAB_TXCMD_ADDR_LO, uint32_t(addr));
        store(e + 4 * NICLAB_TXCMD_ADDR_HI, uint32_t(addr >> 32));
        store(e + 4 * NICLAB_TXCMD_TAG, tag);
        tail = (tail + 1) % NICLAB_DMA_FIFO_ENTRIES;
    }
    void ring() { store(NICLAB_TXDMA_CMD_TAIL, tail); }
    // A single-region message, posted at once.
    void send(uint32_t dst, uint32_t length, uint64_t addr, uint32_t tag) {
        command(NICLAB_TXCMD_START | NICLAB_TXCMD_END, dst, length, addr, tag);
        ring();
    }

    Completion completion(uint32_t index) {
        const uint32_t e = NICLAB_TXDMA_CPL_RING + index * NICLAB_TXDMA_CPL_BYTES;
        return {reg(e + 4 * NICLAB_CPL_TAG), reg(e + 4 * NICLAB_CPL_STATUS), reg(e + 4 * NICLAB_CPL_BYTES)};
    }
    size_t irq_count(uint32_t source) const {
        size_t n = 0;
        for (auto& [t, s] : irqs) n += (s & source) != 0;
        return n;
    }
    void run() { kernel.run_until(Time::max(), true); }

    // The bytes the recorded packets carried, from packet `first` on.
    std::vector<uint8_t> payload_of(size_t first, size_t count) const {
        std::vector<uint8_t> out;
        for (size_t i = first; i < first + count; ++i)
            out.insert(out.end(), port.packets[i].payload.begin(), port.packets[i].payload.begin() + port.packets[i].length);
        return out;
    }

    // Checks that packets [first, first + count) form one well-cut message with `data`.
    void expect_message(size_t first, size_t count, uint32_t dst, const std::vector<uint8_t>& data) {
        ASSERT_LE(first + count, port.packets.size());
        const uint32_t id = port.packets[first].message_id;
        for (size_t i = 0; i < count; ++i) {
            const net::Packet& p = port.packets[first + i];
            SCOPED_TRACE(::testing::Message() << "packet " << i << " of " << count);
            EXPECT_EQ(p.src, kNode);
            EXPECT_EQ(p.dst, dst);
            EXPECT_EQ(p.message_id, id);
            EXPECT_EQ(p.sequence, uint16_t(i));
            EXPECT_EQ(p.head, i == 0);
            EXPECT_EQ(p.tail, i + 1 == count);
            EXPECT_EQ(p.message_bytes, data.size());
            const size_t expected_length = std::min<size_t>(64, data.size() - std::min(data.size(), i * 64));
            EXPECT_EQ(p.length, expected_length);
            if (p.tail) {
                EXPECT_EQ(p.message_crc, net::crc32(data)) << "end-to-end CRC-32 of the whole message";
            }
        }
        EXPECT_EQ(payload_of(first, count), data);
    }

    sim::Kernel kernel;
    host::HostMemory memory;
    seastar::DmaConfig cfg;
    bus::HyperTransportParams ht;
    std::unique_ptr<bus::HyperTransport> bus;
    RecordingPort port{kernel};
    std::vector<std::pair<Time, uint32_t>> irqs;
    std::unique_ptr<seastar::TxDma> engine;
    uint32_t tail = 0;
};

TEST_F(tx_dma, GathersRegionsInOrderAndCutsSixtyFourBytePackets) {
    // Three regions at unaligned, out-of-order addresses; region sizes do not line up
    // with packet boundaries, so packets straddle regions.
    auto a = pattern(100, 1), b = pattern(37, 2), c = pattern(200, 3);
    memory.write(0x9003, a);
    memory.write(0x5000, b);
    memory.write(0x20001, c);
    command(NICLAB_TXCMD_START, 12, 100, 0x9003, 0xAAAA);
    command(0, 12, 37, 0x5000, 0xBBBB);
    command(NICLAB_TXCMD_END, 12, 200, 0x20001, 0x1234);
    ring();
    run();

    std::vector<uint8_t> whole = a;
    whole.insert(whole.end(), b.begin(), b.end());
    whole.insert(whole.end(), c.begin(), c.end());
    ASSERT_EQ(port.packets.size(), 6u);  // 337 bytes = 5 x 64 + 17
    expect_message(0, 6, 12, whole);

    EXPECT_EQ(reg(NICLAB_TXDMA_CMD_HEAD), 3u) << "all three commands consumed";
    EXPECT_EQ(reg(NICLAB_TXDMA_CPL_TAIL), 1u);
    Completion cpl = completion(0);
    EXPECT_EQ(cpl.tag, 0x1234u) << "the END command's tag";
    EXPECT_EQ(cpl.status, NICLAB_DMA_OK);
    EXPECT_EQ(cpl.bytes, 337u);
    ASSERT_EQ(irqs.size(), 1u);
    EXPECT_EQ(irqs[0].second, NICLAB_IRQ_TX_DONE);
    EXPECT_EQ(irqs[0].first, port.times.back()) << "completion when the tail packet is out";
    EXPECT_EQ(reg(NICLAB_TXDMA_PACKETS), 6u);
    EXPECT_EQ(engine->messages_sent(), 1u);
}

TEST_F(tx_dma, MessagesGetDistinctIdsAndGoOutInFifoOrder) {
    auto a = pattern(130, 4), b = pattern(64, 5);
    memory.write(0x1000, a);
    memory.write(0x3000, b);
    command(NICLAB_TXCMD_START | NICLAB_TXCMD_END, 1, 130, 0x1000, 1);
    command(NICLAB_TXCMD_START | NICLAB_TXCMD_END, 2, 64, 0x3000, 2);
    ring();
    run();
    ASSERT_EQ(port.packets.size(), 4u);
    expect_message(0, 3, 1, a);
    expect_message(3, 1, 2, b);
    EXPECT_NE(port.packets[0].message_id, port.packets[3].message_id);
    EXPECT_EQ(completion(0).tag, 1u);
    EXPECT_EQ(completion(1).tag, 2u);
    EXPECT_EQ(irq_count(NICLAB_IRQ_TX_DONE), 2u);
}

TEST_F(tx_dma, ZeroByteMessageIsOneHeadAndTailPacket) {
    send(3, 0, 0x1000, 9);
    run();
    ASSERT_EQ(port.packets.size(), 1u);
    const net::Packet& p = port.packets[0];
    EXPECT_TRUE(p.head);
    EXPECT_TRUE(p.tail);
    EXPECT_EQ(p.length, 0u);
    EXPECT_EQ(p.message_bytes, 0u);
    EXPECT_EQ(p.message_crc, net::crc32({}));
    EXPECT_EQ(reg(NICLAB_TXDMA_CPL_TAIL), 1u);
    EXPECT_EQ(completion(0).tag, 9u);
    EXPECT_EQ(completion(0).status, NICLAB_DMA_OK);
    EXPECT_EQ(completion(0).bytes, 0u);
    EXPECT_EQ(irq_count(NICLAB_IRQ_TX_DONE), 1u);
}

TEST_F(tx_dma, WaitsUntilTheEndCommandIsInTheFifo) {
    auto a = pattern(64, 6), b = pattern(10, 7);
    memory.write(0x1000, a);
    memory.write(0x2000, b);
    command(NICLAB_TXCMD_START, 4, 64, 0x1000, 0);
    ring();
    run();
    EXPECT_TRUE(port.packets.empty()) << "a message without its END command must not start";
    EXPECT_TRUE(irqs.empty());
    EXPECT_EQ(reg(NICLAB_TXDMA_CMD_HEAD), 0u);

    command(NICLAB_TXCMD_END, 4, 10, 0x2000, 77);
    ring();
    run();
    std::vector<uint8_t> whole = a;
    whole.insert(whole.end(), b.begin(), b.end());
    ASSERT_EQ(port.packets.size(), 2u);
    expect_message(0, 2, 4, whole);
    EXPECT_EQ(completion(0).tag, 77u);
    EXPECT_EQ(reg(NICLAB_TXDMA_CMD_HEAD), 2u);
}

TEST_F(tx_dma, SixtyThreeCommandsFillTheFifoAndIndicesWrap) {
    // Firmware's view (dma.h): full when advancing the tail would meet the head.
    auto data = pattern(63 + 2, 8);
    memory.write(0x4000, data);
    for (uint32_t i = 0; i < 63; ++i) command(NICLAB_TXCMD_START | NICLAB_TXCMD_END, 1, 1, 0x4000 + i, 100 + i);
    ring();
    EXPECT_EQ(reg(NICLAB_TXDMA_CMD_TAIL), 63u);
    EXPECT_EQ(reg(NICLAB_TXDMA_CMD_HEAD), 0u);
    EXPECT_EQ((reg(NICLAB_TXDMA_CMD_TAIL) + 1) % NICLAB_DMA_FIFO_ENTRIES, reg(NICLAB_TXDMA_CMD_HEAD))
        << "63 commands fill a 64-entry FIFO";
    run();
    ASSERT_EQ(port.packets.size(), 63u);
    EXPECT_EQ(reg(NICLAB_TXDMA_CMD_HEAD), 63u) << "empty again: head == tail";
    EXPECT_EQ(reg(NICLAB_TXDMA_CPL_TAIL), 63u) << "63 completions fill the completion FIFO";
    for (uint32_t i = 0; i < 63; ++i) {
        EXPECT_EQ(completion(i).tag, 100 + i);
        EXPECT_EQ(port.packets[i].payload[0], data[i]);
    }

    // A 64th message goes out, but its completion waits: the completion FIFO is full.
    command(NICLAB_TXCMD_START | NICLAB_TXCMD_END, 1, 1, 0x4000 + 63, 163);
    ring();
    EXPECT_EQ(tail, 0u) << "the command tail wrapped";
    run();
    EXPECT_EQ(port.packets.size(), 64u);
    EXPECT_EQ(reg(NICLAB_TXDMA_CPL_TAIL), 63u) << "no completion while the FIFO is full";
    EXPECT_EQ(reg(NICLAB_TXDMA_CMD_HEAD), 63u) << "its command is still held";
    EXPECT_EQ(irq_count(NICLAB_IRQ_TX_DONE), 63u);

    // The firmware consumes completions: the held one is posted at entry 63, and the
    // completion tail wraps to 0.
    store(NICLAB_TXDMA_CPL_HEAD, 10);
    EXPECT_EQ(reg(NICLAB_TXDMA_CPL_TAIL), 0u);
    EXPECT_EQ(completion(63).tag, 163u);
    EXPECT_EQ(reg(NICLAB_TXDMA_CMD_HEAD), 0u) << "command head wrapped";
    EXPECT_EQ(irq_count(NICLAB_IRQ_TX_DONE), 64u);

    // One more through the wrapped indices (entry 0).
    command(NICLAB_TXCMD_START | NICLAB_TXCMD_END, 1, 1, 0x4000 + 64, 164);
    ring();
    run();
    ASSERT_EQ(port.packets.size(), 65u);
    EXPECT_EQ(port.packets[64].payload[0], data[64]);
    EXPECT_EQ(completion(0).tag, 164u);
    EXPECT_EQ(reg(NICLAB_TXDMA_CPL_TAIL), 1u);
    EXPECT_EQ(reg(NICLAB_TXDMA_CMD_HEAD), 1u);
}

TEST_F(tx_dma, RefusedInjectionWaitsForACreditAndResumesWithTheSamePacket) {
    auto data = pattern(64 * 5 + 9, 9);
    memory.write(0x8000, data);
    port.accept_limit = 2;
    send(5, uint32_t(data.size()), 0x8000, 42);
    engine->injection_ready();  // a spurious credit before anything waits is harmless
    run();
    EXPECT_EQ(port.packets.size(), 2u);
    EXPECT_EQ(port.refused, 1u) << "the engine waits for injection_ready(), it does not poll";
    EXPECT_EQ(reg(NICLAB_TXDMA_CPL_TAIL), 0u);

    kernel.run_until(kernel.now() + Time::us(5));
    port.accept_limit = std::numeric_limits<size_t>::max();
    engine->injection_ready();
    run();
    ASSERT_EQ(port.packets.size(), 6u);
    expect_message(0, 6, 5, data);  // nothing lost, nothing duplicated, still in order
    EXPECT_EQ(reg(NICLAB_TXDMA_PACKETS), 6u);
    EXPECT_EQ(completion(0).tag, 42u);
    EXPECT_EQ(completion(0).bytes, data.size());
    EXPECT_EQ(irq_count(NICLAB_IRQ_TX_DONE), 1u);
}

TEST_F(tx_dma, RegionBeyondHostMemoryIsAHostFaultAndSendsNothing) {
    cfg.host_memory_bytes = 1 << 20;
    build();
    memory.write(0x1000, pattern(64, 10));
    // Second region crosses the end of host memory: the whole message is refused.
    command(NICLAB_TXCMD_START, 2, 64, 0x1000, 0);
    command(NICLAB_TXCMD_END, 2, 32, (1 << 20) - 16, 5);
    ring();
    run();
    EXPECT_TRUE(port.packets.empty());
    ASSERT_EQ(reg(NICLAB_TXDMA_CPL_TAIL), 1u);
    EXPECT_EQ(completion(0).tag, 5u);
    EXPECT_EQ(completion(0).status, NICLAB_DMA_HOST_FAULT);
    EXPECT_EQ(completion(0).bytes, 0u);
    EXPECT_EQ(irq_count(NICLAB_IRQ_TX_DONE), 1u);
    EXPECT_EQ(reg(NICLAB_TXDMA_CMD_HEAD), 2u) << "its commands are consumed";

    // A high address word counts too; the engine goes on with the next good message.
    send(2, 8, uint64_t(1) << 32, 6);
    send(2, 8, 0x1000, 7);
    run();
    EXPECT_EQ(completion(1).status, NICLAB_DMA_HOST_FAULT);
    EXPECT_EQ(completion(2).status, NICLAB_DMA_OK);
    EXPECT_EQ(completion(2).tag, 7u);
    ASSERT_EQ(port.packets.size(), 1u);
    auto first8 = pattern(64, 10);
    first8.resize(8);
    expect_message(0, 1, 2, first8);
}

TEST_F(tx_dma, FirstPacketLeavesAfterReadLatencyPlusSixtyFourBytesOfHostBandwidth) {
    // Defaults (seastar): 160 ns + 64 B at 2800 MB/s = 160000 + 22857 ps (rounded down).
    memory.write(0x1000, pattern(256, 11));
    kernel.schedule_at(Time::us(1), [this] { send(1, 256, 0x1000, 0); });
    run();
    ASSERT_EQ(port.times.size(), 4u);
    EXPECT_EQ(port.times[0], Time::us(1) + Time::ps(182'857));
    // Then each packet when its last byte is in: 64 k bytes after the read latency.
    for (int64_t k = 2; k <= 4; ++k)
        EXPECT_EQ(port.times[size_t(k - 1)], Time::us(1) + Time::ns(160) + Time::ps(64 * k * 1'000'000 / 2800)) << k;
}

TEST_F(tx_dma, TimingFollowsTheConfiguredLatencyAndBandwidth) {
    ht.dma_read_latency = Time::us(1);
    ht.payload_mb_s = 1000;  // 1 ns per byte: no rounding
    build();
    memory.write(0x1000, pattern(150, 12));
    send(1, 150, 0x1000, 0);
    run();
    ASSERT_EQ(port.times.size(), 3u);
    EXPECT_EQ(port.times[0], Time::ns(1000 + 64));
    EXPECT_EQ(port.times[1], Time::ns(1000 + 128));
    EXPECT_EQ(port.times[2], Time::ns(1000 + 150));

    // A short message leaves as soon as its few bytes are in.
    port.packets.clear();
    port.times.clear();
    const Time start = kernel.now();
    send(1, 10, 0x1000, 0);
    run();
    ASSERT_EQ(port.times.size(), 1u);
    EXPECT_EQ(port.times[0], start + Time::ns(1000 + 10));
}

TEST_F(tx_dma, CompletionHeadWriteDuringAZeroByteMessageDoesNotCompleteItTwice) {
    // Firmware that consumes an earlier completion (writes TXDMA_CPL_HEAD) while a
    // zero-byte message is still in its host read latency.
    send(3, 0, 0x1000, 1);
    kernel.run_until(Time::ns(50));
    store(NICLAB_TXDMA_CPL_HEAD, 0);  // nothing consumed: the same head again
    EXPECT_EQ(reg(NICLAB_TXDMA_CPL_TAIL), 0u) << "completed before its packet was sent";
    run();
    EXPECT_EQ(port.packets.size(), 1u);
    EXPECT_EQ(reg(NICLAB_TXDMA_CPL_TAIL), 1u) << "one message, one completion";
    EXPECT_EQ(irq_count(NICLAB_IRQ_TX_DONE), 1u);
}

TEST_F(tx_dma, CompletionHeadWriteDuringAZeroByteMessageLeavesTheNextMessageIntact) {
    // The same, with a message queued behind the zero-byte one.
    auto data = pattern(100, 13);
    memory.write(0x1000, data);
    command(NICLAB_TXCMD_START | NICLAB_TXCMD_END, 3, 0, 0x1000, 1);
    command(NICLAB_TXCMD_START | NICLAB_TXCMD_END, 3, 100, 0x1000, 2);
    ring();
    kernel.run_until(Time::ns(50));
    store(NICLAB_TXDMA_CPL_HEAD, 0);
    run();
    ASSERT_EQ(port.packets.size(), 3u);
    expect_message(0, 1, 3, {});
    expect_message(1, 2, 3, data);
    EXPECT_EQ(reg(NICLAB_TXDMA_CPL_TAIL), 2u);
    EXPECT_EQ(completion(0).tag, 1u);
    EXPECT_EQ(completion(1).tag, 2u);
}

// Injected ahead (PacketPort::inject_ahead: the network takes a packet now as of the time
// its data is in) or each at its time: the same packets at the same times, the completion
// with the tail, and PACKETS read at every packet's time, a picosecond either side, and
// from an event scheduled before the message at that time (it fires before the engine's
// would have) counts exactly the packets injected by then.
struct AheadRun {
    std::vector<std::vector<uint64_t>> packets;  // header fields, then the payload's bytes
    std::vector<Time> times, irq_times;
    std::vector<uint32_t> counted;  // PACKETS at each probe
    uint64_t ahead = 0;
};

AheadRun run_engine(bool ahead, const std::vector<Time>& probes, uint32_t bytes) {
    sim::Kernel kernel;
    host::HostMemory memory;
    memory.write(0x3000, pattern(bytes, 21));
    bus::HyperTransport bus(kernel, memory, bus::HyperTransportParams{});
    AheadRun r;
    seastar::TxDma engine(kernel, bus, seastar::DmaConfig{}, kNode, [&](uint32_t) { r.irq_times.push_back(kernel.now()); });
    RecordingPort port(kernel);
    port.ahead = ahead;
    engine.set_port(&port);
    r.counted.resize(probes.size());
    for (size_t i = 0; i < probes.size(); ++i)
        kernel.schedule_at(probes[i], [&, i] { r.counted[i] = engine_reg(engine, NICLAB_TXDMA_PACKETS); });
    kernel.schedule_at(Time::ns(100), [&] {
        const uint32_t e = NICLAB_TXDMA_CMD_RING;
        engine_store(engine, e + 4 * NICLAB_TXCMD_CTRL, NICLAB_TXCMD_START | NICLAB_TXCMD_END);
        engine_store(engine, e + 4 * NICLAB_TXCMD_DST, 3);
        engine_store(engine, e + 4 * NICLAB_TXCMD_LENGTH, bytes);
        engine_store(engine, e + 4 * NICLAB_TXCMD_ADDR_LO, 0x3000);
        engine_store(engine, e + 4 * NICLAB_TXCMD_ADDR_HI, 0);
        engine_store(engine, NICLAB_TXDMA_CMD_TAIL, 1);
    });
    kernel.run_until(Time::max(), true);
    for (const net::Packet& p : port.packets) {
        std::vector<uint64_t> f{p.src, p.dst, p.message_id, p.sequence, p.head, p.tail, p.message_bytes, p.length, p.message_crc};
        f.insert(f.end(), p.payload.begin(), p.payload.begin() + p.length);
        r.packets.push_back(f);
    }
    r.times = port.times;
    r.ahead = port.taken_ahead;
    EXPECT_EQ(engine_reg(engine, NICLAB_TXDMA_PACKETS), (bytes + 63) / 64);
    return r;
}

// Both ways for a message of `bytes`; how many packets went ahead.
uint64_t same_ahead_or_not(uint32_t bytes) {
    const size_t n = (bytes + 63) / 64;
    const AheadRun first = run_engine(false, {}, bytes);
    EXPECT_EQ(first.times.size(), n);
    std::vector<Time> probes;
    for (Time t : first.times)
        for (Time p : {t - Time::ps(1), t, t + Time::ps(1)}) probes.push_back(p);
    const AheadRun waiting = run_engine(false, probes, bytes), ahead = run_engine(true, probes, bytes);
    EXPECT_EQ(waiting.ahead, 0u);
    EXPECT_EQ(ahead.times, waiting.times);
    EXPECT_EQ(ahead.irq_times, waiting.irq_times);
    EXPECT_EQ(ahead.packets, waiting.packets);
    EXPECT_EQ(ahead.counted, waiting.counted);
    for (size_t k = 0; k < first.times.size(); ++k) {
        SCOPED_TRACE(::testing::Message() << "packet " << k);
        EXPECT_EQ(ahead.counted[3 * k], k) << "a picosecond before it";
        EXPECT_EQ(ahead.counted[3 * k + 1], k) << "at its time, from an event that fires before the engine's";
        EXPECT_EQ(ahead.counted[3 * k + 2], k + 1) << "a picosecond after it";
    }
    return ahead.ahead;
}

TEST(tx_dma_ahead, PacketsInjectedAheadAreTheSameAndCountOnlyOnceTheirTimeComes) {
    EXPECT_EQ(same_ahead_or_not(700), 9u)
        << "all but the head (its pump event starts the train) and the tail (it posts the completion)";
}

// 45 packets: the ring of 32 records fills with packets not yet counted, so the next one
// waits for its event; there the counted records go and the ring takes packets again.
TEST(tx_dma_ahead, AFullRingFallsBackToTheEventAndIsPrunedThere) {
    const uint64_t ahead = same_ahead_or_not(64 * 45);
    EXPECT_GT(ahead, 32u) << "records pruned and the ring used again";
    EXPECT_LT(ahead, 43u) << "one packet at least waited for its event when the ring was full";
}

}  // namespace
}  // namespace niclab::test
