// Go-back-N under link errors (issue 13): Myrinet has no link-level retry, so a bit
// flipped on the cable into a NI reaches it; the LANai's receive engine finds it by
// the packet's CRC-8 and marks the message bad (lanai.h), the firmware drops the
// message whole (recv.c), and the sender goes back to it, told by the receiver's
// GAP (the next message out of sequence) or by its own retransmission timer (a lost
// ACK or last message: scoreboard.c). Everything arrives in order exactly once, every
// byte checked, on each data-path image; the counters show the corrupted packets, the
// drops and the resends; the same seed gives the same run to the picosecond; a run
// without errors resends nothing; a message nobody answers is given up and its
// sender told.
#include "grim_test_support.hpp"

#include <algorithm>
#include <iostream>
#include <map>

#include "niclab/fw/grim_fw.h"

namespace niclab::grim {
namespace {

using namespace test;

constexpr uint64_t kSrc = 0x1000'0000, kDst = 0x2000'0000, kNotify = 0x2FFF'0000;

enum class Kind { Am, RmP, RmV };

// What a stream did: the receiver's arrivals in order, the end time, every counter.
struct Outcome {
    std::vector<uint32_t> order;     // AM: args[0] of each handler run; RM: notification values seen
    Time end{};                      // when the sender had every ACK
    bool finished = false;
    std::map<std::string, uint64_t> at[2];  // per node: the firmware's counters and nic.recv_crc_errors
};

uint64_t hw(system::System& sys, size_t node, const char* name) { return sys.hardware(node).counter(name).value_or(0); }

// Node 0 sends `n` messages of `bytes` to node 1, which takes them as they come; each
// message's bytes are its own (payload(bytes, k)) and checked where they land.
Outcome stream(system::System& sys, Kind kind, uint32_t n, uint32_t bytes) {
    niclab::test::TestProcesses procs;
    Outcome out;
    uint32_t src_va = 0, dst_va = 0, notify_va = 0;
    if (kind == Kind::RmV) {  // both nodes' registered buffers (the library's own allocator)
        src_va = endpoint(sys, 0).malloc_pinned(n * bytes);
        dst_va = endpoint(sys, 1).malloc_pinned(n * bytes);
        notify_va = endpoint(sys, 1).malloc_pinned(4);
    }
    procs.spawn(sys.host_cpu(0), "sender", [&](host::ProcessContext& ctx) {
        Endpoint& ep = endpoint(sys, 0);
        const uint32_t h = ep.register_handler("lossy", {});
        for (uint32_t k = 0; k < n; ++k) {
            const uint64_t at = uint64_t(k) * bytes;
            switch (kind) {
                case Kind::Am:
                    sys.host_memory(0).write(kSrc, payload(bytes, k));
                    ep.am_send(ctx, 1, h, {k, 0, 0, 0}, kSrc, bytes);
                    break;
                case Kind::RmP:
                    sys.host_memory(0).write(kSrc + at, payload(bytes, k));
                    ep.rm_write_p(ctx, 1, kDst + at, kSrc + at, bytes, kNotify, k + 1);
                    break;
                case Kind::RmV:
                    vwrite(sys, 0, uint32_t(src_va + at), payload(bytes, k));
                    ep.rm_write_v(ctx, 1, uint32_t(dst_va + at), uint32_t(src_va + at), bytes, notify_va, k + 1);
                    break;
            }
        }
        // Until every message is answered (a lost last ACK is the timer's to find): ACKs
        // reach only the NI, so the test looks at its counter every 10 us.
        while (ep.counter("acks_received") < n) ctx.sleep_for(Time::us(10));
        out.end = ctx.now();
    });
    procs.spawn(sys.host_cpu(1), "receiver", [&](host::ProcessContext& ctx) {
        Endpoint& ep = endpoint(sys, 1);
        ep.register_handler("lossy", [&](host::ProcessContext&, const ActiveMessage& m) {
            EXPECT_EQ(read(sys, 1, m.payload_addr, m.bytes), payload(bytes, m.args[0])) << "message " << m.args[0];
            out.order.push_back(m.args[0]);
        });
        auto notified = [&] {
            if (kind == Kind::RmV) return ep.word(notify_va);
            const std::vector<uint8_t> w = read(sys, 1, kNotify, 4);
            return uint32_t(w[0]) | uint32_t(w[1]) << 8 | uint32_t(w[2]) << 16 | uint32_t(w[3]) << 24;
        };
        ep.wait(ctx, [&] {
            if (kind == Kind::Am) return out.order.size() == n;
            // The notification word after each DMA to this host: it never goes back.
            const uint32_t v = notified();
            if (out.order.empty() || out.order.back() != v) out.order.push_back(v);
            return v == n;
        });
    });
    sys.run_for(Time::ms(3000));
    procs.rethrow_failures();
    out.finished = std::all_of(procs.begin(), procs.end(), [](const auto& p) { return p->done(); });
    for (uint32_t node : {0u, 1u}) {
        for (const auto& c : Endpoint::counter_names()) out.at[node][c] = endpoint(sys, node).counter(c.c_str());
        out.at[node]["nic.recv_crc_errors"] = hw(sys, node, "nic.recv_crc_errors");
    }
    // Every message's bytes where it landed (RM: once all are in).
    for (uint32_t k = 0; k < n && kind != Kind::Am; ++k) {
        const uint64_t at = uint64_t(k) * bytes;
        if (kind == Kind::RmP)
            EXPECT_EQ(read(sys, 1, kDst + at, bytes), payload(bytes, k)) << "block " << k;
        else
            EXPECT_EQ(vread(sys, 1, uint32_t(dst_va + at), bytes), payload(bytes, k)) << "block " << k;
    }
    return out;
}

std::vector<uint32_t> iota(uint32_t n, uint32_t from = 0) {
    std::vector<uint32_t> v(n);
    for (uint32_t i = 0; i < n; ++i) v[i] = from + i;
    return v;
}

void print(const Outcome& o) {
    for (uint32_t node : {0u, 1u}) {
        std::cout << "  node " << node << ":";
        for (const char* c : {"sent", "retransmits", "received", "out_of_order", "nacks_sent", "nacks_received", "crc_drops", "timeouts",
                              "duplicates", "undeliverable", "nic.recv_crc_errors"})
            std::cout << " " << c << "=" << o.at[node].at(c);
        std::cout << "\n";
    }
    std::cout << "  end " << o.end.as_us() << " us\n";
}

// Messages arrived once each, in order, after corruption, drops and resends that the
// counters show; nothing given up.
void expect_recovered(const Outcome& o, Kind kind, uint32_t n) {
    ASSERT_TRUE(o.finished) << "the stream did not finish";
    if (kind == Kind::Am) {
        EXPECT_EQ(o.order, iota(n));
    } else {
        // The notification word only grew, and ended at n (RM runs at the NI: no poll).
        for (size_t i = 1; i < o.order.size(); ++i) EXPECT_LT(o.order[i - 1], o.order[i]);
        EXPECT_EQ(o.order.back(), n);
        EXPECT_EQ(o.at[1].at("rm_delivered"), n);
    }
    const auto& a = o.at[0];
    const auto& b = o.at[1];
    EXPECT_EQ(b.at("received"), n);  // each accepted once: a message seen again is only answered
    EXPECT_GT(b.at("nic.recv_crc_errors"), 0u);
    EXPECT_GT(b.at("crc_drops"), 0u);
    EXPECT_LE(b.at("crc_drops"), b.at("nic.recv_crc_errors"));  // a message of several bad packets is one drop
    EXPECT_GT(a.at("retransmits"), 0u);
    EXPECT_EQ(a.at("sent"), n + a.at("retransmits"));
    EXPECT_EQ(a.at("undeliverable"), 0u);
    EXPECT_EQ(a.at("acks_received"), n);
    // Every transmission was accepted, seen again and answered, dropped as out of
    // sequence or dropped whole for its CRC.
    EXPECT_EQ(a.at("sent"), b.at("received") + b.at("duplicates") + b.at("out_of_order") + b.at("crc_drops"));
}

// assumption of the test, not of the model: bit error rates high enough that tens of
// packets are hit in a few hundred messages (a real Myrinet cable is ~1e-15).
system::SystemSpec lossy(uint64_t errors_per_1e15, const char* image = "grim", uint64_t timeout_us = 2000) {
    return spec(2, {{"net.bit_errors_per_1e15", errors_per_1e15}, {"grim.resend_timeout_us", timeout_us}}, "grim-lanai9", image);
}

TEST(GrimLinkErrors, AnAmStreamOverABadLinkArrivesInOrderOnceOnEachImage) {
    for (const char* image : {"grim", "grim_pipelined", "grim_cutthrough"}) {
        SCOPED_TRACE(image);
        system::System sys(lossy(2'000'000'000, image));  // 2e-6 a bit: ~14 % of 9000-byte messages
        const Outcome o = stream(sys, Kind::Am, 200, 9000);
        std::cout << image << ", AM 200 x 9000 B:\n";
        print(o);
        expect_recovered(o, Kind::Am, 200);
        EXPECT_GT(o.at[1].at("nic.recv_crc_errors"), 10u);
        EXPECT_GT(o.at[1].at("nacks_sent"), 0u);  // the next message out of sequence: GAP
    }
}

TEST(GrimLinkErrors, RmpAndRmvWritesOverABadLinkLandOnceInOrder) {
    for (Kind kind : {Kind::RmP, Kind::RmV}) {
        SCOPED_TRACE(kind == Kind::RmP ? "RM-P" : "RM-V");
        system::System sys(lossy(2'000'000'000));
        const Outcome o = stream(sys, kind, 120, 12000);
        std::cout << (kind == Kind::RmP ? "RM-P" : "RM-V") << " 120 x 12000 B:\n";
        print(o);
        expect_recovered(o, kind, 120);
        EXPECT_GT(o.at[1].at("nic.recv_crc_errors"), 10u);
    }
}

// Small messages: the 8-byte ACKs are hit too (node 0 receives nothing else), the
// sender's timer resends the unanswered message and the receiver, having taken it,
// answers it again without delivering it twice.
TEST(GrimLinkErrors, CorruptedAcksAreSurvivedByTheTimerAndAnsweredAgain) {
    system::System sys(lossy(300'000'000'000, "grim", 1000));  // 3e-4 a bit
    const Outcome o = stream(sys, Kind::Am, 600, 64);
    std::cout << "AM 600 x 64 B:\n";
    print(o);
    expect_recovered(o, Kind::Am, 600);
    EXPECT_GT(o.at[0].at("nic.recv_crc_errors"), 0u);  // ACKs hit
    EXPECT_GT(o.at[0].at("timeouts"), 0u);
    EXPECT_GT(o.at[1].at("duplicates"), 0u);
}

TEST(GrimLinkErrors, SameSeedSameRunToThePicosecondAndNoErrorsNoResends) {
    auto once = [](uint64_t ber) {
        system::System sys(lossy(ber));
        const Outcome o = stream(sys, Kind::Am, 60, 9000);
        EXPECT_TRUE(o.finished);
        std::vector<uint64_t> v = {uint64_t(o.end.ps())};
        for (uint32_t node : {0u, 1u})
            for (const auto& [name, value] : o.at[node]) v.push_back(value);
        return std::make_pair(v, o);
    };
    const auto [a, lossy_run] = once(4'000'000'000);
    const auto [b, _] = once(4'000'000'000);
    EXPECT_EQ(a, b);
    EXPECT_GT(lossy_run.at[1].at("crc_drops"), 0u);
    const auto [c, clean] = once(0);
    EXPECT_EQ(clean.order, iota(60));
    for (uint32_t node : {0u, 1u})
        for (const char* name : {"retransmits", "timeouts", "crc_drops", "duplicates", "out_of_order", "nacks_sent", "nic.recv_crc_errors"})
            EXPECT_EQ(clean.at[node].at(name), 0u) << "node " << node << " " << name;
    EXPECT_LT(clean.end, lossy_run.end);  // the errors cost time
}

// A cable that corrupts everything into node 1: no message to it is ever answered.
// After resend_limit timeouts node 0's NI gives it up and its host learns it.
TEST(GrimLinkErrors, AMessageNobodyAnswersIsGivenUpAndItsSenderTold) {
    system::System sys(spec(2, {{"net.bit_errors_per_1e15", 10'000'000'000'000}, {"grim.resend_timeout_us", 200}, {"grim.resend_limit", 3}}));
    endpoint(sys, 1);  // node 1's NI is up and receiving: it drops each message for its CRC
    niclab::test::TestProcesses procs;
    std::string error;
    uint32_t error_node = 99;
    procs.spawn(sys.host_cpu(0), "sender", [&](host::ProcessContext& ctx) {
        Endpoint& ep = endpoint(sys, 0);
        sys.host_memory(0).write(kSrc, payload(1000, 1));
        ep.am_send(ctx, 1, ep.register_handler("lost", {}), {1, 0, 0, 0}, kSrc, 1000);
        try {
            ep.wait(ctx, [] { return false; });
        } catch (const DeliveryError& e) {
            error = e.what();
            error_node = e.node();
        }
    });
    sys.run_for(Time::ms(20));
    procs.rethrow_failures();
    EXPECT_EQ(error_node, 1u);
    EXPECT_NE(error.find("node 0: an active message to node 1 was given up"), std::string::npos) << error;
    Endpoint& a = endpoint(sys, 0);
    EXPECT_EQ(a.counter("timeouts"), 4u);  // three resends, then the fourth gives up
    EXPECT_EQ(a.counter("retransmits"), 3u);
    EXPECT_EQ(a.counter("undeliverable"), 1u);
    EXPECT_EQ(endpoint(sys, 1).counter("crc_drops"), 4u);
    EXPECT_EQ(endpoint(sys, 1).counter("received"), 0u);
}

}  // namespace
}  // namespace niclab::grim
