// The ordering rule of §4.5.6 (L1197-1207): messages are processed "in the order in
// which they arrive at a programming interface, not the NI". Remote memory executes at
// the NI on arrival while active messages wait in the endpoint's queue for a poll, so
// an RM may bypass an AM injected before it -- and nothing else is reordered: AM→AM,
// RM→AM and RM→RM keep injection order, also while an RM waits for the host to
// translate its address.
#include "grim_test_support.hpp"

#include "niclab/fw/grim_fw.h"

namespace niclab::grim {
namespace {

using namespace test;

constexpr uint32_t kRounds = 6;  // AMs stay within the 16-slot queue: no NACK, no rollback

struct Seen {
    std::vector<uint32_t> am_order;   // args[0] of each AM as its handler ran
    uint32_t bypassed = 0;            // AMs whose handler already saw the RM injected after them
    uint32_t rm_done_at_first_am = 0;
};

// Node 0 injects AM k, then RM-V k (log slot k := k + 1, notification := k + 1), for
// every k. Node 1 polls its AMs after `late`; a watcher checks at every moment that
// the notification never runs ahead of the log.
Seen interleave(Time late) {
    system::System sys(spec());
    Endpoint& a = endpoint(sys, 0);
    Endpoint& b = endpoint(sys, 1);
    // Page-pinned log: every RM-V misses and waits for the driver's interrupt.
    const uint32_t src = a.malloc_pinned(4 * kRounds), log = b.pin_pages(4 * kRounds), notify = b.malloc_pinned(4);
    vwrite(sys, 1, log, std::vector<uint8_t>(4 * kRounds, 0));
    for (uint32_t k = 0; k < kRounds; ++k) vwrite(sys, 0, src + 4 * k, {uint8_t(k + 1), 0, 0, 0});
    auto slot = [&](uint32_t k) { return b.word(log + 4 * k); };
    Seen seen;
    niclab::test::TestProcesses procs;
    procs.spawn(sys.host_cpu(0), "sender", [&](host::ProcessContext& ctx) {
        const uint32_t h = a.register_handler("order", {});
        for (uint32_t k = 0; k < kRounds; ++k) {
            a.am_send(ctx, 1, h, {k, 0, 0, 0}, 0x1000'0000, 0);
            a.rm_write_v(ctx, 1, log + 4 * k, src + 4 * k, 4, notify, k + 1);
        }
    });
    procs.spawn(sys.host_cpu(1), "receiver", [&](host::ProcessContext& ctx) {
        b.register_handler("order", [&](host::ProcessContext&, const ActiveMessage& m) {
            const uint32_t k = m.args[0];
            if (seen.am_order.empty()) seen.rm_done_at_first_am = b.word(notify);
            seen.am_order.push_back(k);
            for (uint32_t j = 0; j < k; ++j) EXPECT_EQ(slot(j), j + 1) << "RM " << j << " was injected before AM " << k << " (RM→AM order)";
            if (slot(k) == k + 1) ++seen.bypassed;
        });
        ctx.sleep_for(late);
        b.wait(ctx, [&] { return seen.am_order.size() == kRounds; });
    });
    procs.spawn(sys.host_cpu(1), "watcher", [&](host::ProcessContext& ctx) {
        while (b.word(notify) < kRounds) {
            const uint32_t v = b.word(notify);
            for (uint32_t j = 0; j < v; ++j) ASSERT_EQ(slot(j), j + 1) << "notification " << v << " before RM " << j << " landed (RM→RM order)";
            ctx.sleep_for(Time::ns(100));
        }
    });
    sys.run_for(Time::ms(4));
    procs.rethrow_failures();
    EXPECT_EQ(b.counter("xlate_misses"), kRounds);
    EXPECT_EQ(b.counter("am_delivered"), kRounds);
    EXPECT_EQ(b.counter("nacks_sent") + a.counter("retransmits"), 0u);
    return seen;
}

std::vector<uint32_t> in_order() {
    std::vector<uint32_t> v(kRounds);
    for (uint32_t i = 0; i < kRounds; ++i) v[i] = i;
    return v;
}

TEST(GrimOrdering, RemoteMemoryBypassesEarlierActiveMessagesWaitingInTheQueue) {
    // The endpoint polls late: every RM has run at the NI before the first handler, so
    // each AM's handler sees the RM injected after it (the one reordering allowed).
    const Seen s = interleave(Time::us(1500));
    EXPECT_EQ(s.am_order, in_order());
    EXPECT_EQ(s.rm_done_at_first_am, kRounds);
    EXPECT_EQ(s.bypassed, kRounds);
}

TEST(GrimOrdering, WithAPromptPollerActiveMessagesAndRemoteMemoryKeepInjectionOrder) {
    // Polling at once: handlers run in order and each finds every earlier RM done
    // (checked inside), although each RM waited for the host to translate.
    const Seen s = interleave(Time{});
    EXPECT_EQ(s.am_order, in_order());
    EXPECT_LT(s.rm_done_at_first_am, kRounds);  // the first handler ran before the last RM
}

}  // namespace
}  // namespace niclab::grim
