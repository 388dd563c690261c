// Every StarT-X transport through msg::Transport on two back-to-back nodes: ping-pong of
// many sizes byte-exact (the transports check the pattern), tags small, repeated and
// large, non-blocking poll, an exchange in both directions at once, and determinism.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <tuple>
#include <vector>

#include "test_jam_support.hpp"

namespace niclab::startx::test {
namespace {

const std::vector<std::string> kAll = {"pio", "pio64", "vi", "vi_tx", "rdma", "rdma_excl", "rpc"};

// A ping-pong of every size in `sizes`, tags as given; returns the time it ended.
Time ping_pong(const std::string& name, const std::vector<uint64_t>& sizes, const std::vector<uint64_t>& tags) {
    JamPair t;
    auto ta = t.transport(name, true), tb = t.transport(name, false);
    uint64_t max = 1;
    for (uint64_t s : sizes) max = std::max(max, s);
    Time end;
    t.spawn(t.a, "ping", [&](host::ProcessContext& ctx) {
        ta->open(ctx, max);
        for (size_t i = 0; i < sizes.size(); ++i) {
            ta->prepare_send(ctx, sizes[i]);
            ta->send(ctx, tags[i % tags.size()]);
            const msg::Received r = ta->recv(ctx);
            EXPECT_EQ(r.bytes, sizes[i]) << name;
            EXPECT_EQ(r.tag, tags[i % tags.size()] + 1) << name;
        }
        ta->wait_sends(ctx);
        end = ctx.now();
    });
    t.spawn(t.b, "pong", [&](host::ProcessContext& ctx) {
        tb->open(ctx, max);
        for (size_t i = 0; i < sizes.size(); ++i) {
            const msg::Received r = tb->recv(ctx);
            EXPECT_EQ(r.bytes, sizes[i]) << name;
            EXPECT_EQ(r.tag, tags[i % tags.size()]) << name;
            tb->prepare_send(ctx, r.bytes);
            tb->send(ctx, r.tag + 1);
        }
        tb->wait_sends(ctx);
    });
    t.run(Time::ms(500));
    for (auto& p : t.procs) EXPECT_TRUE(p->done()) << name << ": " << p->name() << " did not finish";
    EXPECT_EQ(ta->received(), sizes.size());
    return end;
}

class EveryTransport : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryTransport, PingPongOfManySizesIsByteExact) {
    ping_pong(GetParam(), {0, 1, 3, 7, 8, 9, 55, 56, 57, 87, 88, 89, 176, 1000, 1025, 5000, 20000}, {0, 5, 5, 4095});
}

TEST_P(EveryTransport, LargeAndRepeatedTagsArrive) {
    ping_pong(GetParam(), {8, 8, 100, 8}, {1ull << 40, 1ull << 40, 0xFFFF'FFFF'FFFF'FFF0ull, 4096});
}

TEST_P(EveryTransport, SameSeedSameTimesToThePicosecond) {
    const std::vector<uint64_t> sizes = {8, 56, 300, 4000};
    EXPECT_EQ(ping_pong(GetParam(), sizes, {1}), ping_pong(GetParam(), sizes, {1}));
}

TEST_P(EveryTransport, ExchangeInBothDirectionsAtOnce) {
    const std::string name = GetParam();
    JamPair t;
    auto ta = t.transport(name, true), tb = t.transport(name, false);
    constexpr int kRounds = 5;
    for (auto* side : {&ta, &tb}) {
        msg::Transport* me = side->get();
        t.spawn(side == &ta ? t.a : t.b, "x", [me, name](host::ProcessContext& ctx) {
            me->open(ctx, 3000);
            for (int i = 0; i < kRounds; ++i) {
                me->prepare_send(ctx, 3000);
                me->send(ctx, uint64_t(i));
                EXPECT_EQ(me->recv(ctx).tag, uint64_t(i)) << name;
            }
            me->wait_sends(ctx);
        });
    }
    t.run(Time::ms(500));
    EXPECT_EQ(ta->received(), uint64_t(kRounds));
    EXPECT_EQ(tb->received(), uint64_t(kRounds));
}

TEST_P(EveryTransport, PollTakesWhatHasArrived) {
    const std::string name = GetParam();
    JamPair t;
    auto ta = t.transport(name, true), tb = t.transport(name, false);
    t.spawn(t.a, "send", [&](host::ProcessContext& ctx) {
        ta->open(ctx, 64);
        for (int i = 0; i < 3; ++i) {
            ta->prepare_send(ctx, 64);
            ta->send(ctx, uint64_t(i));
        }
        ta->wait_sends(ctx);
    });
    t.spawn(t.b, "poll", [&](host::ProcessContext& ctx) {
        tb->open(ctx, 64);
        tb->poll(ctx);  // nothing has come yet
        EXPECT_EQ(tb->received(), 0u);
        for (int i = 0; i < 200 && tb->received() < 3; ++i) {
            ctx.sleep_for(Time::us(20));
            tb->poll(ctx);
        }
        EXPECT_EQ(tb->received(), 3u) << name;
        for (int i = 0; i < 3; ++i) EXPECT_EQ(tb->recv(ctx).tag, uint64_t(i));
    });
    t.run(Time::ms(500));
}

INSTANTIATE_TEST_SUITE_P(Startx, EveryTransport, ::testing::ValuesIn(kAll));

TEST(Transports, SizesBeyondTheLimitAndUnknownNamesAreErrors) {
    JamPair t;
    EXPECT_THROW(t.transport("udp", true), msg::TransportError);
    auto ta = t.transport("pio", true);
    auto& p = t.spawn(t.a, "open", [&](host::ProcessContext& ctx) {
        EXPECT_THROW(ta->open(ctx, kMaxTransportMessage + 1), msg::TransportError);
        ta->open(ctx, 100);
        EXPECT_THROW(ta->prepare_send(ctx, 101), msg::TransportError);
    });
    t.run();
    EXPECT_TRUE(p.done());
}

TEST(Transports, Table1MessageSizesIncludeTheHeader) {
    // pio n = 8 is Table 1's 16-byte message: one message of 2 payload words; pio64 n = 56
    // is row (c)'s 64-byte message: one stda.
    for (const auto& [name, n, words] : std::vector<std::tuple<std::string, uint64_t, uint32_t>>{{"pio", 8, 4}, {"pio", 56, 16}, {"pio64", 56, 16}}) {
        JamPair t;
        auto ta = t.transport(name, true), tb = t.transport(name, false);
        t.spawn(t.a, "s", [&](host::ProcessContext& ctx) {
            ta->open(ctx, n);
            ta->prepare_send(ctx, n);
            ta->send(ctx, 0);
        });
        t.spawn(t.b, "r", [&](host::ProcessContext& ctx) {
            tb->open(ctx, n);
            tb->recv(ctx);
        });
        t.run();
        EXPECT_EQ(t.a.niu.counters().messages_launched[0], 1u) << name << " " << n;
        EXPECT_EQ(t.a.niu.counters().words_written, words) << name << " " << n;
    }
}

TEST(Transports, RpcSwitchesFromPioToRdmaAboveTheThreshold) {
    for (uint64_t n : {uint64_t(1), uint64_t(1024), uint64_t(1025), uint64_t(65536)}) {
        JamPair t;
        auto ta = t.transport("rpc", true), tb = t.transport("rpc", false);
        t.spawn(t.a, "s", [&](host::ProcessContext& ctx) {
            ta->open(ctx, n);
            ta->prepare_send(ctx, n);
            ta->send(ctx, 9);
            ta->wait_sends(ctx);
        });
        t.spawn(t.b, "r", [&](host::ProcessContext& ctx) {
            tb->open(ctx, n);
            EXPECT_EQ(tb->recv(ctx).tag, 9u);
        });
        t.run();
        const bool rdma = n > t.ra.params().pio_max_bytes;
        EXPECT_EQ(t.a.niu.counters().rdma_bytes_sent > 0, rdma) << n;
        EXPECT_EQ(t.ja.counters().driver_calls, rdma ? 1u : 0u) << n;  // the RDMA transmit
        EXPECT_EQ(t.jb.counters().driver_calls, rdma ? 1u : 0u) << n;  // the window
    }
}

TEST(Transports, RdmaMovesLargeBlocksWithAndWithoutTheProtocol) {
    Time one_way[2];
    for (int excl = 0; excl < 2; ++excl) {
        JamPair t;
        const std::string name = excl ? "rdma_excl" : "rdma";
        auto ta = t.transport(name, true), tb = t.transport(name, false);
        constexpr uint64_t kN = 4ull << 20;
        t.spawn(t.a, "s", [&](host::ProcessContext& ctx) {
            ta->open(ctx, kN);
            ta->prepare_send(ctx, kN);
            const Time t0 = ctx.now();
            ta->send(ctx, 1);
            ta->recv(ctx);  // the same block back
            one_way[excl] = ctx.now() - t0;
        });
        t.spawn(t.b, "r", [&](host::ProcessContext& ctx) {
            tb->open(ctx, kN);
            const auto r = tb->recv(ctx);
            EXPECT_EQ(r.bytes, kN);
            tb->prepare_send(ctx, kN);
            tb->send(ctx, 2);
            tb->wait_sends(ctx);
        });
        t.run(Time::ms(1000));
        EXPECT_EQ(t.b.niu.counters().rdma_bytes_received, kN) << name;
        const double mb_s = 2.0 * double(kN) / (one_way[excl].as_us());
        std::printf("%s: 4 MiB round trip %.1f us, %.1f MB/s one way\n", name.c_str(), one_way[excl].as_us(), mb_s);
    }
    EXPECT_GT(one_way[1], one_way[0]);  // the protocol's messages cost time
}

}  // namespace
}  // namespace niclab::startx::test
