// GRIM remote memory by virtual address (seed 004 §4.5): RM-V writes and RM-RV reads
// land byte for byte in registered memory, bytes around them untouched; the NI's
// translation cache hits its static entries without the host, and on a miss asks the
// driver through the host interrupt; memory that is not registered is refused with a
// typed error and nothing written; the same spec gives the same times.
#include "grim_test_support.hpp"

#include "niclab/fw/grim_fw.h"

namespace niclab::grim {
namespace {

using namespace test;

constexpr uint8_t kGuard = 0xEE;

// Writes `bytes` of payload k from node 0's `src` to node 1's `dst` with RM-V, then
// waits until node 1's notification word at `notify` says k + 1.
void write_v(system::System& sys, uint32_t src, uint32_t dst, uint32_t bytes, uint32_t notify, uint32_t k) {
    niclab::test::TestProcesses procs;
    vwrite(sys, 0, src, payload(bytes, k));
    procs.spawn(sys.host_cpu(0), "writer", [&](host::ProcessContext& ctx) { endpoint(sys, 0).rm_write_v(ctx, 1, dst, src, bytes, notify, k + 1); });
    procs.spawn(sys.host_cpu(1), "target", [&](host::ProcessContext& ctx) {
        Endpoint& ep = endpoint(sys, 1);
        ep.wait(ctx, [&] { return ep.word(notify) == k + 1; });
    });
    sys.run_for(Time::ms(5));
    procs.rethrow_failures();
    ASSERT_EQ(endpoint(sys, 1).word(notify), k + 1) << "write " << k << " never completed";
}

// A registered buffer on node 1 with guard bytes on both sides of [at, at + n).
void guard(system::System& sys, uint32_t base, uint32_t bytes) { vwrite(sys, 1, base, std::vector<uint8_t>(bytes, kGuard)); }
void expect_guarded(system::System& sys, uint32_t base, uint32_t at, uint32_t n, uint32_t bytes) {
    const std::vector<uint8_t> all = vread(sys, 1, base, bytes);
    for (uint32_t i = 0; i < bytes; ++i)
        if (i < at - base || i >= at - base + n) {
            ASSERT_EQ(all[i], kGuard) << "byte " << i << " outside the write was touched";
        }
}

// Two LANai 9 nodes with their endpoints.
class GrimRemoteMemory : public ::testing::Test {
protected:
    system::System sys{spec()};
    Endpoint& a = endpoint(sys, 0);
    Endpoint& b = endpoint(sys, 1);
};

TEST_F(GrimRemoteMemory, RmvIntoContiguousMemoryHitsTheStaticEntriesWithoutTheHost) {
    constexpr uint32_t kBuf = 70000;
    const uint32_t src = a.malloc_pinned(kBuf), dst = b.malloc_pinned(kBuf), notify = b.malloc_pinned(4);
    guard(sys, dst, kBuf);
    const std::vector<uint32_t> sizes = {4, 7, 4096, 60000, GRIM_MTU};
    for (uint32_t k = 0; k < sizes.size(); ++k) {
        const uint32_t at = dst + 100 + k;  // unaligned targets too
        write_v(sys, src, at, sizes[k], notify, k);
        ASSERT_EQ(vread(sys, 1, at, sizes[k]), payload(sizes[k], k)) << "write " << k;
        if (k == 0) expect_guarded(sys, dst, at, sizes[k], kBuf);
        guard(sys, dst, kBuf);
    }
    // Payload and notification word both found in the static entries: no interrupt.
    EXPECT_EQ(b.counter("xlate_hits"), 2 * sizes.size());
    EXPECT_EQ(b.counter("xlate_misses"), 0u);
    EXPECT_EQ(b.translator().interrupts(), 0u);
    EXPECT_EQ(b.counter("rm_delivered"), sizes.size());
    EXPECT_EQ(b.counter("xlate_errors"), 0u);
    EXPECT_EQ(b.counter("received"), sizes.size());
    EXPECT_EQ(a.counter("acks_received"), sizes.size());
}

TEST_F(GrimRemoteMemory, RmvIntoPinnedPagesMissesAndTheHostInterruptFillsTheCache) {
    constexpr uint32_t kBuf = 80000;
    const uint32_t src = a.malloc_pinned(kBuf), dst = b.pin_pages(kBuf), notify = b.malloc_pinned(4);
    // The pages really are scattered: the NI must cut the DMA at every page.
    ASSERT_NE(b.memory().pa(dst + 4096), b.memory().pa(dst) + 4096);
    guard(sys, dst, kBuf);
    const uint32_t at = dst + 1000, n = 60000;  // 15 page boundaries
    write_v(sys, src, at, n, notify, 0);
    EXPECT_EQ(vread(sys, 1, at, n), payload(n, 0));
    expect_guarded(sys, dst, at, n, kBuf);
    EXPECT_EQ(b.counter("xlate_misses"), 1u);
    EXPECT_EQ(b.translator().interrupts(), 1u);
    EXPECT_EQ(lanai(sys, 1).bus().counters().interrupts, 1u);
    // The same range again: the dynamic entry the driver filled answers, no interrupt.
    write_v(sys, src, at, n, notify, 1);
    EXPECT_EQ(vread(sys, 1, at, n), payload(n, 1));
    EXPECT_EQ(b.counter("xlate_misses"), 1u);
    EXPECT_EQ(b.translator().interrupts(), 1u);
    // Eight other ranges take the eight dynamic entries round robin; the first range
    // then misses again.
    for (uint32_t k = 0; k < GRIM_XLATE_DYNAMIC; ++k) write_v(sys, src, dst + 4 * k, 4, notify, 2 + k);
    EXPECT_EQ(b.counter("xlate_misses"), 1u + GRIM_XLATE_DYNAMIC);
    write_v(sys, src, at, n, notify, 20);
    EXPECT_EQ(vread(sys, 1, at, n), payload(n, 20));
    EXPECT_EQ(b.counter("xlate_misses"), 2u + GRIM_XLATE_DYNAMIC);
    EXPECT_EQ(b.translator().interrupts(), 2u + GRIM_XLATE_DYNAMIC);
    EXPECT_EQ(b.counter("xlate_errors"), 0u);
}

// Node 0 reads `n` bytes at node 1's `remote` into its `local`, waits for its lock.
void read_rv(system::System& sys, uint32_t remote, uint32_t local, uint32_t n, uint32_t lock) {
    niclab::test::TestProcesses procs;
    vwrite(sys, 0, lock, {1, 0, 0, 0});
    procs.spawn(sys.host_cpu(0), "reader", [&](host::ProcessContext& ctx) {
        Endpoint& ep = endpoint(sys, 0);
        ep.rm_read(ctx, 1, remote, local, n, lock);
        ep.wait(ctx, [&] { return ep.word(lock) == 0; });
    });
    sys.run_for(Time::ms(5));
    procs.rethrow_failures();
}

TEST_F(GrimRemoteMemory, RmrvFetchesRemoteBytesAndTheReplyIsTheRequestsAck) {
    constexpr uint32_t kBuf = 70000;
    const uint32_t remote_c = b.malloc_pinned(kBuf), remote_p = b.pin_pages(kBuf);
    const uint32_t local = a.pin_pages(kBuf), lock = a.malloc_pinned(4);
    vwrite(sys, 1, remote_c, payload(kBuf, 7));
    vwrite(sys, 1, remote_p, payload(kBuf, 8));
    const std::vector<std::pair<uint32_t, uint32_t>> reads = {{4, 0}, {GRIM_MTU, 3}, {4097, 5000}};
    uint32_t k = 0;
    for (const auto& [n, off] : reads) {
        for (uint32_t remote : {remote_c, remote_p}) {
            vwrite(sys, 0, local, std::vector<uint8_t>(kBuf, kGuard));
            read_rv(sys, remote + off, local + 8, n, lock);
            ASSERT_EQ(a.word(lock), 0u) << "read " << k << " never completed";
            const std::vector<uint8_t> got = vread(sys, 0, local, kBuf), want = vread(sys, 1, remote + off, n);
            EXPECT_TRUE(std::equal(want.begin(), want.end(), got.begin() + 8)) << "read " << k;
            for (uint32_t i = 0; i < kBuf; ++i)
                if (i < 8 || i >= 8 + n) {
                    ASSERT_EQ(got[i], kGuard) << "read " << k << ": byte " << i << " outside it was touched";
                }
            ++k;
        }
    }
    EXPECT_EQ(b.counter("rm_reads_served"), k);
    EXPECT_EQ(a.counter("rm_read_replies"), k);
    // Each reply acknowledged its request: no ACK went for the requests, every one is freed.
    EXPECT_EQ(b.counter("acks_sent"), 0u);
    EXPECT_EQ(a.counter("acks_received"), k);
    EXPECT_EQ(a.counter("sent"), k);
    EXPECT_GT(b.counter("xlate_misses") + a.counter("xlate_misses"), 0u);  // the pinned pages went through the host
    EXPECT_EQ(a.counter("xlate_errors") + b.counter("xlate_errors"), 0u);
}

TEST_F(GrimRemoteMemory, AnUnregisteredAddressIsRefusedWithATypedErrorAndNothingIsWritten) {
    const uint32_t src = a.malloc_pinned(4096), notify = b.malloc_pinned(4);
    const uint32_t nowhere = AddressSpace::kPinnedVa + 0x0100'0000 * 7;  // never allocated
    vwrite(sys, 0, src, payload(4096, 1));
    const uint64_t dma_before = lanai(sys, 1).host_dma().bytes();
    niclab::test::TestProcesses procs;
    std::string error;
    uint32_t error_va = 0, error_node = 99;
    procs.spawn(sys.host_cpu(0), "writer", [&](host::ProcessContext& ctx) {
        // A local source that is not registered: refused at the call.
        EXPECT_THROW(a.rm_write_v(ctx, 1, notify, nowhere, 16, 0, 0), MemoryError);
        a.rm_write_v(ctx, 1, nowhere, src, 4096, notify, 5);
        try {
            a.wait(ctx, [] { return false; });
        } catch (const MemoryError& e) {
            error = e.what();
            error_va = e.va();
            error_node = e.node();
        }
    });
    sys.run_for(Time::ms(2));
    procs.rethrow_failures();
    EXPECT_EQ(error_va, nowhere);
    EXPECT_EQ(error_node, 1u);
    EXPECT_NE(error.find("RM-V write refused"), std::string::npos) << error;
    EXPECT_NE(error.find("0x87000000"), std::string::npos) << error;
    // Node 1's NI wrote nothing into host memory but its 16-byte translation request.
    EXPECT_EQ(lanai(sys, 1).host_dma().bytes() - dma_before, sizeof(grim_xlate_request));
    EXPECT_EQ(b.word(notify), 0u);
    EXPECT_EQ(b.counter("xlate_errors"), 1u);
    EXPECT_EQ(a.counter("remote_errors"), 1u);
    EXPECT_EQ(b.translator().refused(), 1u);
    // The channel goes on: the message was consumed in sequence and freed at the sender.
    const uint32_t dst = b.malloc_pinned(4096);
    write_v(sys, src, dst, 4096, notify, 6);
    EXPECT_EQ(vread(sys, 1, dst, 4096), payload(4096, 6));
    EXPECT_EQ(a.counter("sent"), 2u);
    EXPECT_EQ(a.counter("retransmits"), 0u);
}

TEST_F(GrimRemoteMemory, AReadOfUnregisteredRemoteMemoryLeavesTheLocalBufferAndLockAlone) {
    const uint32_t local = a.malloc_pinned(256), lock = a.malloc_pinned(4);
    vwrite(sys, 0, local, std::vector<uint8_t>(256, kGuard));
    vwrite(sys, 0, lock, {1, 0, 0, 0});
    niclab::test::TestProcesses procs;
    bool refused = false;
    procs.spawn(sys.host_cpu(0), "reader", [&](host::ProcessContext& ctx) {
        EXPECT_THROW(a.rm_read(ctx, 1, AddressSpace::kPinnedVa, local, 16, lock + 4096 * 1024), MemoryError);  // local lock
        a.rm_read(ctx, 1, AddressSpace::kPagesVa + 0x10'0000, local, 64, lock);
        try {
            a.wait(ctx, [] { return false; });
        } catch (const MemoryError& e) {
            refused = e.node() == 1 && e.va() == AddressSpace::kPagesVa + 0x10'0000;
        }
    });
    sys.run_for(Time::ms(2));
    procs.rethrow_failures();
    EXPECT_TRUE(refused);
    EXPECT_EQ(vread(sys, 0, local, 256), std::vector<uint8_t>(256, kGuard));
    EXPECT_EQ(a.word(lock), 1u);
    EXPECT_EQ(endpoint(sys, 1).counter("rm_reads_served"), 0u);
}

TEST_F(GrimRemoteMemory, AfterAFirmwareReloadOnlyTheNewDriverInstanceAnswersTheNi) {
    lanai(sys, 1).nic().reload_firmware(firmware());
    Endpoint& fresh = endpoint(sys, 1);
    ASSERT_NE(&fresh, &b);
    const uint32_t src = a.malloc_pinned(4096), dst = fresh.pin_pages(4096), notify = fresh.malloc_pinned(4);
    write_v(sys, src, dst, 4096, notify, 0);
    EXPECT_EQ(vread(sys, 1, dst, 4096), payload(4096, 0));
    EXPECT_EQ(fresh.translator().interrupts(), 1u);
    EXPECT_EQ(b.translator().interrupts(), 0u);  // retired: its ISR no longer takes the card's line
}

// Completion times of a miss-path RM-V and an RM-RV, in picoseconds.
std::vector<int64_t> timed_run() {
    system::System sys(spec());
    Endpoint& a = endpoint(sys, 0);
    Endpoint& b = endpoint(sys, 1);
    const uint32_t src = a.malloc_pinned(8192), dst = b.pin_pages(8192), notify = b.malloc_pinned(4);
    const uint32_t local = a.pin_pages(8192), lock = a.malloc_pinned(4);
    vwrite(sys, 0, src, payload(8192, 3));
    vwrite(sys, 0, lock, {1, 0, 0, 0});
    std::vector<int64_t> t;
    niclab::test::TestProcesses procs;
    procs.spawn(sys.host_cpu(0), "a", [&](host::ProcessContext& ctx) {
        a.rm_write_v(ctx, 1, dst, src, 8192, notify, 1);
        a.rm_read(ctx, 1, dst, local, 8192, lock);
        a.wait(ctx, [&] { return a.word(lock) == 0; });
        t.push_back(ctx.now().ps());
    });
    procs.spawn(sys.host_cpu(1), "b", [&](host::ProcessContext& ctx) {
        b.wait(ctx, [&] { return b.word(notify) == 1; });
        t.push_back(ctx.now().ps());
    });
    sys.run_for(Time::ms(2));
    procs.rethrow_failures();
    EXPECT_EQ(vread(sys, 0, local, 8192), payload(8192, 3));
    return t;
}

TEST(GrimRemoteMemoryDeterminism, TheSameSpecGivesTheSameTimesToThePicosecond) {
    const std::vector<int64_t> first = timed_run(), second = timed_run();
    ASSERT_EQ(first.size(), 2u);
    EXPECT_EQ(first, second);
}

}  // namespace
}  // namespace niclab::grim
