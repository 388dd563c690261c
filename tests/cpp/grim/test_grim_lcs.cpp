// Logical channels (seed 004 §4.3): several endpoints of one node, each on its own LC,
// send to several LCs of another, interleaved. Ordering holds within a channel (source
// LC, destination LC) and only there (§4.3.2, Fig. 4.8): every message arrives once and
// in its channel's order, every byte checked, under receiver exhaustion (NACKs) and
// under link errors; a NACK rolls back the refused channel only ("a message is
// retransmitted only if previous messages to the same logical channel were refused",
// L1093), which the per-LC resend counters show; the same seed gives the same run to
// the picosecond; a bad LC is a ConfigError naming "lc"; LC 0 and remote memory still
// work with a queue shared eight ways.
#include "grim_test_support.hpp"

#include <map>

#include "niclab/fw/grim_fw.h"
#include "niclab/system/config_error.hpp"

namespace niclab::grim {
namespace {

using namespace test;

constexpr uint64_t kSrc = 0x1000'0000;

uint32_t tag(uint32_t lc, uint32_t k) { return lc << 16 | k; }

struct Channels {
    // [receiving LC][sending LC]: the k of each arrival, in the order the handlers ran.
    std::map<uint32_t, std::map<uint32_t, std::vector<uint32_t>>> got;
    std::vector<uint32_t> resent;  // per sending LC (grim_lc.resent)
    Time end{};
};

// Node 0's endpoints on LCs 0..senders-1 each send `n` AMs of `bytes` to node 1, round
// by round: message k of LC s goes to LC (s + k) % receivers, or to LC s when
// `straight`. Node 1's endpoint on LC `slow` takes nothing for `late`.
Channels run(system::System& sys, uint32_t senders, uint32_t receivers, uint32_t n, uint32_t bytes, bool straight, uint32_t slow,
             Time late) {
    Channels c;
    auto dst_lc = [&](uint32_t s, uint32_t k) { return straight ? s : (s + k) % receivers; };
    uint32_t expected_total = senders * n, arrived = 0;
    niclab::test::TestProcesses procs;
    procs.spawn(sys.host_cpu(0), "senders", [&](host::ProcessContext& ctx) {
        std::vector<Endpoint*> eps;
        std::vector<uint32_t> ids;
        for (uint32_t s = 0; s < senders; ++s) {
            eps.push_back(&endpoint(sys, 0, s));
            ids.push_back(eps.back()->register_handler("lc.count", {}));
        }
        for (uint32_t k = 0; k < n; ++k)
            for (uint32_t s = 0; s < senders; ++s) {
                sys.host_memory(0).write(kSrc, payload(bytes, tag(s, k)));
                eps[s]->am_send(ctx, 1, ids[s], {tag(s, k), 0, 0, 0}, kSrc, bytes, dst_lc(s, k));
            }
    });
    for (uint32_t r = 0; r < receivers; ++r)
        procs.spawn(sys.host_cpu(1), "receiver", [&, r](host::ProcessContext& ctx) {
            Endpoint& ep = endpoint(sys, 1, r);
            ep.register_handler("lc.count", [&, r](host::ProcessContext&, const ActiveMessage& m) {
                EXPECT_EQ(read(sys, 1, m.payload_addr, m.bytes), payload(bytes, m.args[0])) << "LC " << r << " tag " << m.args[0];
                c.got[r][m.args[0] >> 16].push_back(m.args[0] & 0xFFFF);
                ++arrived;
            });
            if (r == slow) ctx.sleep_for(late);
            ep.wait(ctx, [&] { return arrived == expected_total; });
            c.end = std::max(c.end, ctx.now());
        });
    sys.run_for(Time::ms(400));
    procs.rethrow_failures();
    EXPECT_EQ(arrived, expected_total);
    for (uint32_t s = 0; s < senders; ++s) c.resent.push_back(endpoint(sys, 0, s).resent());
    // Each channel: exactly the messages sent on it, once, in the order sent.
    for (uint32_t s = 0; s < senders; ++s)
        for (uint32_t r = 0; r < receivers; ++r) {
            std::vector<uint32_t> want;
            for (uint32_t k = 0; k < n; ++k)
                if (dst_lc(s, k) == r) want.push_back(k);
            EXPECT_EQ(c.got[r][s], want) << "channel LC " << s << " -> LC " << r;
        }
    return c;
}

TEST(GrimLogicalChannels, EachChannelKeepsItsOrderOnceUnderExhaustion) {
    system::System sys(spec(2, {{"grim.lcs", 4}, {"grim.am_slots", 2}}));
    const Channels c = run(sys, 3, 3, 24, 1000, false, 1, Time::us(300));
    Endpoint& a = endpoint(sys, 0);
    Endpoint& b = endpoint(sys, 1);
    EXPECT_GT(b.counter("nacks_sent"), 0u);
    EXPECT_EQ(b.counter("received"), 72u);
    EXPECT_EQ(b.counter("am_delivered"), 72u);
    EXPECT_EQ(a.counter("acks_received"), 72u);
    // Every LC sent to the slow LC 1, so every one was rolled back at some point; the
    // NI's total is the channels' sum.
    EXPECT_EQ(c.resent[0] + c.resent[1] + c.resent[2], a.counter("retransmits"));
    for (uint32_t s = 0; s < 3; ++s) EXPECT_GT(c.resent[s], 0u) << "LC " << s;
    EXPECT_EQ(a.counter("sent"), 72u + a.counter("retransmits"));
}

TEST(GrimLogicalChannels, ANackRollsBackOnlyTheRefusedChannel) {
    system::System sys(spec(2, {{"grim.lcs", 2}, {"grim.am_slots", 2}}));
    // LC 0 -> LC 0 (a receiver asleep, two slots) and LC 1 -> LC 1 (taken at once).
    const Channels c = run(sys, 2, 2, 30, 500, true, 0, Time::us(400));
    Endpoint& a = endpoint(sys, 0);
    EXPECT_GT(endpoint(sys, 1).counter("nacks_sent"), 0u);
    EXPECT_GT(c.resent[0], 0u);
    EXPECT_EQ(c.resent[1], 0u);  // per-NI sequencing (§4.3.2's first scheme) would resend these too
    EXPECT_EQ(a.counter("retransmits"), c.resent[0]);
    // Node 1's LC 1 refused nothing and saw nothing twice: all its 30 came in sequence.
    EXPECT_EQ(c.got.at(1).at(1).size(), 30u);
}

TEST(GrimLogicalChannels, EachChannelKeepsItsOrderOnceOverABadLink) {
    // assumption of the test: ~14 % of 9000-byte messages hit (test_grim_link_errors.cpp).
    system::System sys(spec(2, {{"grim.lcs", 4}, {"net.bit_errors_per_1e15", 2'000'000'000}, {"grim.resend_timeout_us", 2000}}));
    const Channels c = run(sys, 3, 3, 30, 9000, false, 99, Time{});
    Endpoint& a = endpoint(sys, 0);
    Endpoint& b = endpoint(sys, 1);
    EXPECT_GT(sys.hardware(1).counter("nic.recv_crc_errors").value_or(0), 5u);
    EXPECT_GT(b.counter("crc_drops"), 0u);
    EXPECT_EQ(b.counter("am_delivered"), 90u);
    EXPECT_EQ(c.resent[0] + c.resent[1] + c.resent[2], a.counter("retransmits"));
    EXPECT_GT(a.counter("retransmits"), 0u);
}

TEST(GrimLogicalChannels, SameSpecAndSeedGiveTheSameRunToThePicosecond) {
    auto once = [] {
        system::System sys(spec(2, {{"grim.lcs", 4}, {"grim.am_slots", 2}}));
        const Channels c = run(sys, 3, 3, 10, 700, false, 2, Time::us(150));
        std::vector<uint64_t> out = {uint64_t(sys.now().ps()), uint64_t(c.end.ps())};
        out.insert(out.end(), c.resent.begin(), c.resent.end());
        for (uint32_t n : {0u, 1u})
            for (const auto& name : Endpoint::counter_names()) out.push_back(endpoint(sys, n).counter(name.c_str()));
        out.push_back(sys.nic(0).cpu().instret());
        out.push_back(sys.nic(1).cpu().cycles());
        return out;
    };
    EXPECT_EQ(once(), once());
}

std::string config_key(const std::function<void()>& f) {
    try {
        f();
    } catch (const system::ConfigError& e) {
        return e.key_path();
    }
    return "(none)";
}

TEST(GrimLogicalChannels, ABadLogicalChannelIsAConfigErrorNamingIt) {
    system::System sys(spec(2, {{"grim.lcs", 4}}));
    EXPECT_EQ(config_key([&] { endpoint(sys, 0, 4); }), "lc");
    EXPECT_EQ(config_key([&] { endpoint(sys, 1, 200); }), "lc");
    Endpoint& three = endpoint(sys, 0, 3);
    EXPECT_EQ(&endpoint(sys, 0, 3), &three);                           // one endpoint per LC
    EXPECT_EQ(config_key([&] { Endpoint again(endpoint(sys, 0), 3); }), "lc");  // the LC is owned
    niclab::test::TestProcesses procs;
    std::string key;
    procs.spawn(sys.host_cpu(0), "bad", [&](host::ProcessContext& ctx) {
        key = config_key([&] { three.am_send(ctx, 1, 0, {}, kSrc, 4, 4); });
    });
    sys.run_for(Time::ms(1));
    procs.rethrow_failures();
    EXPECT_EQ(key, "lc");
    for (uint32_t bad : {0u, GRIM_MAX_LCS + 1})
        EXPECT_NE(config_key([&] { system::System s(spec(2, {{"grim.lcs", bad}})); }).find("grim.lcs"), std::string::npos) << bad;
}

// Eight LCs share the send-queue SRAM: 32 KB each, so a message is at most 16 KB less
// the header; RM transfers past it are cut into such fragments, from any LC.
TEST(GrimLogicalChannels, EightLcsShrinkTheMessageAndRemoteMemoryStillLandsWhole) {
    system::System sys(spec(2, {{"grim.lcs", 8}}));
    Endpoint& zero = endpoint(sys, 0);
    Endpoint& five = endpoint(sys, 0, 5);
    endpoint(sys, 1);  // node 1's driver set-up: its NI goes
    EXPECT_EQ(five.send_queue_bytes(), Endpoint::kSendQueueBytes / 8);
    EXPECT_EQ(five.max_message_bytes(), Endpoint::kSendQueueBytes / 16 - GRIM_HEADER_BYTES);
    EXPECT_LE(zero.fragment_bytes(), zero.max_message_bytes());
    constexpr uint64_t kDst = 0x2000'0000, kNotify = 0x2FFF'0000;
    constexpr uint32_t kBytes = 100'003;
    sys.host_memory(0).write(kSrc, payload(kBytes, 7));
    sys.host_memory(0).write(kSrc + 0x100000, payload(kBytes, 8));
    niclab::test::TestProcesses procs;
    std::string too_big;
    procs.spawn(sys.host_cpu(0), "rm", [&](host::ProcessContext& ctx) {
        zero.rm_write_p(ctx, 1, kDst, kSrc, kBytes, kNotify, 1);
        five.rm_write_p(ctx, 1, kDst + 0x100000, kSrc + 0x100000, kBytes, kNotify + 4, 2);
        try {
            five.am_send(ctx, 1, 0, {}, kSrc, five.max_message_bytes() + 1);
        } catch (const Error& e) {
            too_big = e.what();
        }
    });
    sys.run_for(Time::ms(20));
    procs.rethrow_failures();
    EXPECT_EQ(read(sys, 1, kDst, kBytes), payload(kBytes, 7));
    EXPECT_EQ(read(sys, 1, kDst + 0x100000, kBytes), payload(kBytes, 8));
    EXPECT_EQ(read(sys, 1, kNotify, 4), std::vector<uint8_t>({1, 0, 0, 0}));
    EXPECT_EQ(read(sys, 1, kNotify + 4, 4), std::vector<uint8_t>({2, 0, 0, 0}));
    EXPECT_NE(too_big.find("LC 5's send queue of 32768 B"), std::string::npos) << too_big;
    EXPECT_GT(endpoint(sys, 1).counter("rm_delivered"), 2u * (kBytes / 16384));
}

}  // namespace
}  // namespace niclab::grim
