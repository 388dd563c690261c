// GRIM's sockets emulation (seed 004 §8.3, sockets.hpp): every byte through a socket
// across the fragment boundaries, both ways; several sockets of a node at once; partial
// reads; a receiver too slow for its endpoint's queue (NACKs, resends) losing nothing;
// determinism to the picosecond; bad calls as SocketError naming the socket; the
// `sockets` transport under the experiments.
#include "grim_test_support.hpp"

#include <functional>

#include "niclab/exp/experiments.hpp"
#include "niclab/fw/grim_fw.h"
#include "niclab/systems/grim/sockets.hpp"

namespace niclab::grim {
namespace {

using namespace test;

// Host buffers the tests' processes write from and read into.
constexpr uint64_t kOut = 0x1000'0000, kIn = 0x2000'0000;

using Body = std::function<void(host::ProcessContext&, Sockets&)>;

// Runs `server` on node 0 and `client` on node 1 (and `third` on node 2) until done.
void run(system::System& sys, const Body& server, const Body& client, const Body& third = {}, Time limit = Time::ms(400)) {
    niclab::test::TestProcesses procs;
    uint32_t done = 0;
    std::vector<Body> bodies = {server, client};
    if (third) bodies.push_back(third);
    for (uint32_t n = 0; n < bodies.size(); ++n) {
        Sockets* so = &sockets(sys, n);  // handlers registered on every node before traffic
        procs.spawn(sys.host_cpu(n), "sock" + std::to_string(n), [&, n, so](host::ProcessContext& ctx) {
            bodies[n](ctx, *so);
            ++done;
        });
    }
    sys.run_for(limit);
    procs.rethrow_failures();
    ASSERT_EQ(done, bodies.size()) << "a socket program did not finish by " << sys.now().as_us() << " us";
}

void put(system::System& sys, size_t node, uint64_t at, const std::vector<uint8_t>& b) { sys.host_memory(node).write(at, b); }

TEST(GrimSockets, EveryByteArrivesBothWaysAcrossFragmentBoundaries) {
    for (const char* fw : {"grim", "grim_cutthrough"}) {
        system::System sys(spec(2, {}, "grim-lanai9", fw));
        const uint64_t f = endpoint(sys, 0).fragment_bytes();
        const std::vector<uint64_t> sizes = {1, 3, 64, 1000, f - 1, f, f + 1, 2 * f, 3 * f + 7, (1 << 20) + 13};
        run(
            sys,
            [&](host::ProcessContext& ctx, Sockets& so) {
                const int fd = so.accept(ctx, 7);
                for (uint32_t k = 0; k < sizes.size(); ++k) {
                    so.read_full(ctx, fd, kIn, sizes[k]);
                    EXPECT_EQ(read(sys, 0, kIn, sizes[k]), payload(sizes[k], k)) << fw << ", " << sizes[k] << " B to the server";
                    put(sys, 0, kOut, payload(sizes[k], 100 + k));
                    so.write(ctx, fd, kOut, sizes[k]);
                }
            },
            [&](host::ProcessContext& ctx, Sockets& so) {
                const int fd = so.connect(ctx, 0, 7);
                EXPECT_TRUE(so.established(fd));
                for (uint32_t k = 0; k < sizes.size(); ++k) {
                    put(sys, 1, kOut, payload(sizes[k], k));
                    so.write(ctx, fd, kOut, sizes[k]);
                    so.read_full(ctx, fd, kIn, sizes[k]);
                    EXPECT_EQ(read(sys, 1, kIn, sizes[k]), payload(sizes[k], 100 + k)) << fw << ", " << sizes[k] << " B to the client";
                }
            });
        // One block per fragment (L2182): a write of n bytes is ceil(n / f) fragments.
        uint64_t fragments = 0;
        for (auto s : sizes) fragments += (s + f - 1) / f;
        EXPECT_EQ(sockets(sys, 0).stats().blocks, fragments) << fw;
        EXPECT_EQ(sockets(sys, 1).stats().blocks, fragments) << fw;
        EXPECT_EQ(sockets(sys, 1).stats().fragments_out, fragments) << fw;
    }
}

// Node 0 serves three connections at once (two from node 1 on different ports, one
// from node 2), reading them in the opposite order from the writes: each socket holds
// only its own bytes.
TEST(GrimSockets, SeveralSocketsOnANodeKeepTheirOwnBytes) {
    system::System sys(spec(3));
    const uint64_t n = 70000;  // two fragments each
    run(
        sys,
        [&](host::ProcessContext& ctx, Sockets& so) {
            const int a = so.accept(ctx, 10), b = so.accept(ctx, 11), c = so.accept(ctx, 12);
            EXPECT_EQ(so.endpoint().node(), 0u);
            const std::vector<std::pair<int, uint32_t>> order = {{c, 3}, {b, 2}, {a, 1}};
            for (auto [fd, k] : order) {
                so.read_full(ctx, fd, kIn, n);
                EXPECT_EQ(read(sys, 0, kIn, n), payload(n, k)) << "socket " << fd;
            }
            for (int fd : {a, b, c}) EXPECT_EQ(so.available(fd), 0u);
        },
        [&](host::ProcessContext& ctx, Sockets& so) {
            const int x = so.connect(ctx, 0, 10), y = so.connect(ctx, 0, 11);
            EXPECT_NE(x, y);
            put(sys, 1, kOut, payload(n, 1));
            so.write(ctx, x, kOut, n / 2);
            put(sys, 1, kOut + n, payload(n, 2));
            so.write(ctx, y, kOut + n, n);
            so.write(ctx, x, kOut + n / 2, n - n / 2);
        },
        [&](host::ProcessContext& ctx, Sockets& so) {
            ctx.sleep_for(Time::us(200));  // after node 1's: accept takes the requests in order
            const int z = so.connect(ctx, 0, 12);
            put(sys, 2, kOut, payload(n, 3));
            so.write(ctx, z, kOut, n);
        });
}

// read returns what has arrived (at most `max`), blocking only while nothing has.
TEST(GrimSockets, ReadsOfPartialAmountsTakeTheStreamInOrder) {
    system::System sys(spec());
    const uint64_t n = 150000;  // three fragments
    const auto sent = payload(n, 5);
    run(
        sys,
        [&](host::ProcessContext& ctx, Sockets& so) {
            const int fd = so.accept(ctx, 9);
            std::vector<uint8_t> got;
            auto take = [&](uint64_t max) {
                const uint64_t r = so.read(ctx, fd, kIn, max);
                EXPECT_GE(r, 1u);
                EXPECT_LE(r, max);
                const auto b = read(sys, 0, kIn, r);
                got.insert(got.end(), b.begin(), b.end());
                return r;
            };
            take(1);
            take(7);
            take(4096);
            EXPECT_EQ(so.read(ctx, fd, kIn, 0), 0u);  // a read of nothing returns at once
            // Once everything is in, a larger read returns what is there.
            so.endpoint().wait(ctx, [&] { return got.size() + so.available(fd) == n; });
            const uint64_t left = so.available(fd);
            EXPECT_EQ(take(n), left);
            EXPECT_EQ(got, sent);
            // The peer closed: reads return 0 from now on.
            so.endpoint().wait(ctx, [&] { return so.read(ctx, fd, kIn, 10) == 0; });
        },
        [&](host::ProcessContext& ctx, Sockets& so) {
            const int fd = so.connect(ctx, 0, 9, false);  // writes may follow the request at once
            put(sys, 1, kOut, sent);
            so.write(ctx, fd, kOut, n);
            so.close(ctx, fd);
        });
}

// A receiver that does not read for a while: its endpoint's two queue slots fill, its
// NI refuses the rest (NACK) and the sender's NI resends; nothing is lost or repeated.
TEST(GrimSockets, ASlowReceiverIsNackedAndLosesNothing) {
    system::System sys(spec(2, {{"grim.am_slots", 2}}));
    const uint32_t writes = 40;
    const uint64_t each = 3000;
    run(
        sys,
        [&](host::ProcessContext& ctx, Sockets& so) {
            const int fd = so.accept(ctx, 3);
            ctx.sleep_for(Time::us(500));
            for (uint32_t k = 0; k < writes; ++k) {
                so.read_full(ctx, fd, kIn, each);
                EXPECT_EQ(read(sys, 0, kIn, each), payload(each, k)) << "write " << k;
            }
            put(sys, 0, kOut, {0x42});
            so.write(ctx, fd, kOut, 1);  // the sender waits for this: nothing after it
        },
        [&](host::ProcessContext& ctx, Sockets& so) {
            const int fd = so.connect(ctx, 0, 3);
            for (uint32_t k = 0; k < writes; ++k) {
                put(sys, 1, kOut + k * each, payload(each, k));
                so.write(ctx, fd, kOut + k * each, each);
            }
            so.read_full(ctx, fd, kIn, 1);
            EXPECT_EQ(read(sys, 1, kIn, 1), std::vector<uint8_t>{0x42});
        });
    Endpoint& a = endpoint(sys, 1);
    Endpoint& b = endpoint(sys, 0);
    EXPECT_GT(b.counter("nacks_sent"), 0u);
    EXPECT_GT(a.counter("retransmits"), 0u);
    EXPECT_EQ(b.counter("am_delivered"), writes + 1);  // the CONNECT and every write's one fragment, once
    EXPECT_EQ(sockets(sys, 0).stats().bytes_in, writes * each);
}

// The same program twice: every read completes at the same picosecond.
TEST(GrimSockets, DeterministicToThePicosecond) {
    auto once = [] {
        system::System sys(spec());
        std::vector<int64_t> times;
        const std::vector<uint64_t> sizes = {4, 5000, 64513, 300000};
        run(
            sys,
            [&](host::ProcessContext& ctx, Sockets& so) {
                const int fd = so.accept(ctx, 2);
                for (uint64_t s : sizes) {
                    so.read_full(ctx, fd, kIn, s);
                    times.push_back(ctx.now().ps());
                    so.write(ctx, fd, kIn, s);
                }
            },
            [&](host::ProcessContext& ctx, Sockets& so) {
                const int fd = so.connect(ctx, 0, 2);
                for (uint64_t s : sizes) {
                    put(sys, 1, kOut, payload(s, 1));
                    so.write(ctx, fd, kOut, s);
                    so.read_full(ctx, fd, kIn, s);
                    times.push_back(ctx.now().ps());
                }
            });
        return times;
    };
    const auto a = once(), b = once();
    ASSERT_EQ(a.size(), 8u);
    EXPECT_EQ(a, b);
}

// What a SocketError names (copied out of the catch: no blocking call in one).
struct Caught {
    bool thrown = false;
    int fd = 0;
    std::string what;
};
template <typename F>
Caught catching(F&& f) {
    Caught c;
    try {
        f();
    } catch (const SocketError& e) {
        c = {true, e.fd(), e.what()};
    }
    return c;
}

TEST(GrimSockets, BadCallsAreSocketErrorsNamingTheSocket) {
    system::System sys(spec());
    std::vector<Caught> server, client;
    run(
        sys,
        [&](host::ProcessContext& ctx, Sockets& so) {
            const int fd = so.accept(ctx, 4);
            so.read_full(ctx, fd, kIn, 10);
            server.push_back(catching([&] { so.read_full(ctx, fd, kIn, 20); }));  // the peer closes after 10 more
            server.push_back(catching([&] { so.write(ctx, fd, kOut, 1); }));      // and has closed
            so.close(ctx, fd);
            server.push_back(catching([&] { so.read(ctx, fd, kIn, 1); }));
        },
        [&](host::ProcessContext& ctx, Sockets& so) {
            client.push_back(catching([&] { so.read(ctx, Sockets::kFdBase + 99, kIn, 1); }));
            client.push_back(catching([&] { so.read(ctx, 3, kIn, 1); }));
            client.push_back(catching([&] { so.connect(ctx, 5, 4); }));
            client.push_back(catching([&] { so.connect(ctx, 1, 4); }));
            client.push_back(catching([&] { so.connect(ctx, 0, 0); }));
            client.push_back(catching([&] { so.accept(ctx, 70000); }));
            const int fd = so.connect(ctx, 0, 4);
            client.push_back(catching([&] { so.write(ctx, fd, kOut, Sockets::kMaxCall + 1); }));
            client.push_back(catching([&] { so.read(ctx, fd, kIn, Sockets::kMaxCall + 1); }));
            put(sys, 1, kOut, payload(20, 0));
            so.write(ctx, fd, kOut, 20);
            so.close(ctx, fd);
            client.push_back(catching([&] { so.write(ctx, fd, kOut, 1); }));
        });
    const int first = Sockets::kFdBase;  // each node's first socket
    auto expect = [&](const std::vector<Caught>& seen, size_t i, int fd, const std::string& part) {
        ASSERT_LT(i, seen.size());
        EXPECT_TRUE(seen[i].thrown) << "call " << i << " should have failed";
        EXPECT_EQ(seen[i].fd, fd) << seen[i].what;
        EXPECT_NE(seen[i].what.find(part), std::string::npos) << seen[i].what;
        EXPECT_NE(seen[i].what.find("GRIM sockets"), std::string::npos) << seen[i].what;
    };
    ASSERT_EQ(client.size(), 9u);
    expect(client, 0, first + 99, "no socket fd " + std::to_string(first + 99));
    expect(client, 1, 3, "no socket fd 3");
    expect(client, 2, -1, "no node 5");
    expect(client, 3, -1, "node 1 is this node");
    expect(client, 4, -1, "port 0");
    expect(client, 5, -1, "port 70000");
    expect(client, 6, first, "more than one call moves");
    expect(client, 7, first, "more than one call moves");
    expect(client, 8, first, "fd " + std::to_string(first) + " is closed");
    ASSERT_EQ(server.size(), 3u);
    expect(server, 0, first, "closed it after 10 of the 20 B");
    expect(server, 1, first, "has closed it");
    expect(server, 2, first, "fd " + std::to_string(first) + " is closed");
    for (const auto& c : server) EXPECT_NE(c.what.find("node 0"), std::string::npos) << c.what;
    for (const auto& c : client) EXPECT_NE(c.what.find("node 1"), std::string::npos) << c.what;
}

// The experiments over the `sockets` transport: ping-pong across the fragment size and
// a stream, every block checked by the transport.
TEST(GrimSockets, TransportRunsPingpongAndStreamAndCostsMoreThanActiveMessages) {
    const auto s = system::SystemSpec::from_json({{"preset", "grim-lanai9"}, {"nodes", 2}, {"firmware", {firmware("grim")}}});
    const nlohmann::json sizes = {4, 64512, 64513, 200000};
    const auto so = exp::run_experiment("pingpong", s, {{"sizes", sizes}, {"repeats", 2}, {"transport", "sockets"}});
    const auto am = exp::run_experiment("pingpong", s, {{"sizes", sizes}, {"repeats", 2}, {"transport", "am"}});
    ASSERT_EQ(so.rows(), 4u);
    const auto a = am.column("latency_us"), b = so.column("latency_us");
    // The emulation adds its calls, a block and a copy per fragment and the read's copy
    // to every AM it sends (L2182: "not as high as ... the active message ... interfaces").
    // At 4 B its ~1 us hides behind the NI's own work after a delivery (its ACK), which
    // the reply waits for anyway: the same to within one look of the hosts' polling
    // (grim.poll_ns), which finds the reply a poll earlier or later.
    const double poll_us = system::System(s).preset().value("grim.poll_ns") / 1000.0;
    EXPECT_GE(b[0] + poll_us, a[0]);
    for (size_t i = 1; i < a.size(); ++i) EXPECT_GT(b[i], a[i]) << "size " << sizes[i];
    // A 64,513-byte block is two fragments: longer than one of 64,512 bytes.
    EXPECT_GT(b[2], b[1]);
    const auto st = exp::run_experiment("stream", s, {{"sizes", {1024, 100000}}, {"repeats", 4}, {"transport", "sockets"}});
    ASSERT_EQ(st.rows(), 2u);
}

TEST(GrimSockets, Halo3dRunsOverASocketPerNeighbour) {
    for (const uint32_t side : {3u, 100u}) {
        SCOPED_TRACE("side " + std::to_string(side));
        const auto s = system::SystemSpec::from_json({{"system", "grim"}, {"nodes", 12}, {"firmware", {firmware("grim")}}});
        const auto r = exp::run_experiment("halo3d", s, {{"nx", 2}, {"ny", side}, {"nz", side}, {"iterations", 2}, {"transport", "sockets"}});
        ASSERT_EQ(r.rows(), 2u);
        EXPECT_GT(r.row(1)[4], 0.0);
        EXPECT_GT(r.row(1)[1], 0.0);
    }
}

}  // namespace
}  // namespace niclab::grim
