// Multicast fragmentation and reassembly (seed 004 §8.2.3, L2129-2131) and remote memory
// fragmentation (§8.2.2, L2127): a multicast larger than one GRIM message reaches every
// member whole, byte for byte, once and in order, for trees of several shapes and sizes
// across the fragment and MTU boundaries up to 1 MB; fragmented messages from several
// senders on several trees interleave at one receiver without mixing up (the reassembly
// id is the sending endpoint, the tree and a counter); the same spec gives the same
// times; bad calls are typed errors naming the argument. RM transfers larger than one
// message notify (or unlock) only after the last fragment's data is in.
#include "grim_test_support.hpp"

#include <map>

#include "niclab/fw/grim_fw.h"

namespace niclab::grim {
namespace {

using namespace test;

constexpr uint64_t kSrc = 0x1000'0000;  // senders' buffers, 16 MB apart per stream
constexpr uint32_t kFragment = 63 * 1024;  // the `grim` image's fragments (endpoint.hpp)

struct Got {
    uint32_t sender, tree, k, bytes;
    Time at;
};

// Senders' streams: (sender node, tree names, sizes of its messages in order); message k
// goes to trees[k % trees.size()]. One stream a sender: one process uses an endpoint.
struct Stream {
    uint32_t sender;
    std::vector<std::string> trees;
    std::vector<uint32_t> sizes;
    const std::string& tree(uint32_t k) const { return trees[k % trees.size()]; }
};

uint32_t tag_of(uint32_t sender, uint32_t tree, uint32_t k) { return (sender << 16) | (tree << 8) | k; }

class FragRun {
public:
    explicit FragRun(system::System& sys) : sys_(sys), got_(sys.node_count()), busiest_(sys.node_count()) {}

    void subscribe(const std::map<std::string, std::vector<uint32_t>>& trees) {
        niclab::test::TestProcesses procs;
        for (uint32_t n = 0; n < sys_.node_count(); ++n)
            procs.spawn(sys_.host_cpu(n), "setup", [this, n, trees](host::ProcessContext& ctx) {
                endpoint(sys_, n).register_handler("mc", [this, n](host::ProcessContext& c, const ActiveMessage& m) { arrive(c, n, m); });
                for (const auto& [name, members] : trees) {
                    ids_[name] = multicast(sys_, n).find_tree(name);
                    if (std::find(members.begin(), members.end(), n) != members.end()) multicast(sys_, n).subscribe(ctx, ids_[name], 1);
                }
            });
        sys_.run_for(Time::ms(20));
        procs.rethrow_failures();
    }

    // Every stream sends at once; every node polls until it has `expect[node]` messages,
    // and a watcher samples how many messages each node is reassembling.
    void send(const std::vector<Stream>& streams, const std::vector<size_t>& expect, Time run = Time::ms(400)) {
        niclab::test::TestProcesses procs;
        for (size_t i = 0; i < streams.size(); ++i)
            procs.spawn(sys_.host_cpu(streams[i].sender), "sender", [this, i, s = streams[i]](host::ProcessContext& ctx) {
                Multicast& mc = multicast(sys_, s.sender);
                const uint32_t h = mc.endpoint().resolve("mc");
                const uint64_t src = kSrc + i * (16ull << 20);
                for (uint32_t k = 0; k < s.sizes.size(); ++k) {
                    const uint32_t tree = ids_.at(s.tree(k));
                    const uint32_t t = tag_of(s.sender, tree, k);
                    sys_.host_memory(s.sender).write(src, payload(s.sizes[k], t));
                    mc.send_mc(ctx, tree, h, {t, s.sender, tree, s.sizes[k]}, src, s.sizes[k]);
                }
            });
        bool done = false;
        for (uint32_t r = 0; r < sys_.node_count(); ++r)
            procs.spawn(sys_.host_cpu(r), "receiver", [this, r, expect](host::ProcessContext& ctx) {
                endpoint(sys_, r).wait(ctx, [&] { return got_[r].size() >= expect[r]; });
            });
        procs.spawn(sys_.host_cpu(0), "watcher", [this, &done](host::ProcessContext& ctx) {
            while (!done) {
                for (uint32_t r = 0; r < sys_.node_count(); ++r)
                    busiest_[r] = std::max<uint64_t>(busiest_[r], multicast(sys_, r).reassembling());
                ctx.sleep_for(Time::us(20));
            }
        });
        sys_.run_for(run);
        done = true;
        sys_.run_for(Time::us(50));
        procs.rethrow_failures();
        for (uint32_t r = 0; r < sys_.node_count(); ++r)
            EXPECT_EQ(multicast(sys_, r).reassembling(), 0u) << "node " << r << " holds a message it never finished";
    }

    const std::vector<Got>& got(uint32_t n) const { return got_[n]; }
    uint64_t busiest(uint32_t n) const { return busiest_[n]; }
    uint32_t id(const std::string& name) const { return ids_.at(name); }

private:
    void arrive(host::ProcessContext& ctx, uint32_t n, const ActiveMessage& m) {
        const uint32_t t = m.args[0];
        // The arguments survive the fragmentation; the payload is whole, every byte.
        EXPECT_EQ(m.bytes, m.args[3]) << "node " << n << " message " << std::hex << t;
        EXPECT_EQ(m.src_node, m.args[1]);
        if (read(sys_, n, m.payload_addr, m.bytes) != payload(m.args[3], t)) ADD_FAILURE() << "node " << n << ": message " << std::hex << t << " differs";
        got_[n].push_back({m.args[1], m.args[2], t & 0xFF, m.bytes, ctx.now()});
    }

    system::System& sys_;
    std::vector<std::vector<Got>> got_;
    std::vector<uint64_t> busiest_;
    std::map<std::string, uint32_t> ids_;
};

// Members of `name` got exactly the stream's messages to it, in order.
void expect_stream(const FragRun& run, const std::vector<uint32_t>& members, const Stream& s, const std::string& name) {
    const uint32_t tree = run.id(name);
    std::vector<uint32_t> want, want_sizes;
    for (uint32_t k = 0; k < s.sizes.size(); ++k)
        if (s.tree(k) == name) {
            want.push_back(k);
            want_sizes.push_back(s.sizes[k]);
        }
    for (uint32_t m : members) {
        std::vector<uint32_t> ks, sizes;
        for (const auto& g : run.got(m))
            if (g.sender == s.sender && g.tree == tree) {
                ks.push_back(g.k);
                sizes.push_back(g.bytes);
            }
        EXPECT_EQ(ks, want) << "node " << m << ", sender " << s.sender << ", tree " << tree;
        EXPECT_EQ(sizes, want_sizes) << "node " << m;
    }
}

// GRIM messages one multicast of `bytes` takes: one, or init + ceil(bytes / fragment).
uint32_t messages_for(uint32_t bytes, uint32_t fragment = kFragment) { return bytes <= GRIM_MTU ? 1 : 1 + (bytes + fragment - 1) / fragment; }

TEST(GrimMcFragments, EveryByteReachesEveryMemberAcrossTheBoundariesForEveryTreeShape) {
    const std::vector<uint32_t> sizes = {1,         kFragment - 1, kFragment, kFragment + 1, GRIM_MTU, GRIM_MTU + 1,
                                         3 * kFragment + 5, 1u << 20};
    // Shapes: a pair; a full tree of depth 3 (0 -> 1, 2; 1 -> 3); six members, the sender
    // outside the tree and the root not node 0; a chain-like heap of 5 with gaps.
    const std::vector<std::vector<uint32_t>> shapes = {{0, 5}, {0, 1, 2, 3}, {1, 2, 4, 5, 6, 7}, {2, 3, 5, 6, 7}};
    const std::vector<uint32_t> senders = {0, 0, 3, 7};
    for (size_t i = 0; i < shapes.size(); ++i) {
        const auto& g = shapes[i];
        SCOPED_TRACE("tree of " + std::to_string(g.size()) + " from node " + std::to_string(senders[i]));
        system::System sys(spec(8));
        FragRun run(sys);
        run.subscribe({{"g", g}});
        std::vector<size_t> expect(8, 0);
        for (uint32_t m : g) expect[m] = sizes.size();
        const Stream s{senders[i], {"g"}, sizes};
        run.send({s}, expect);
        expect_stream(run, g, s, "g");
        uint32_t grim_messages = 0;
        for (uint32_t b : sizes) grim_messages += messages_for(b);
        for (uint32_t x = 0; x < 8; ++x) {
            const bool member = std::find(g.begin(), g.end(), x) != g.end();
            if (!member) {
                EXPECT_TRUE(run.got(x).empty()) << "node " << x;
            }
            // Each member's NI delivered every fragment as its own AM: the message was cut.
            EXPECT_EQ(endpoint(sys, x).counter("mc_delivered"), member ? grim_messages : 0u) << "node " << x;
        }
    }
}

// Three trees meet at node 5; four senders at once: node 7 alternates between two trees
// (its k-th messages on "a" and "c" have the same counter, told apart by the tree), nodes
// 7 and 2 both send on "a" (the same counters, told apart by the sending endpoint). The
// senders 2, 3 and 4 are inner members of their own trees, which recycle through them
// (a: 0 -> 2, 3; 2 -> 5, 6. b: 1 -> 3, 5; 3 -> 6. c: 2 -> 4, 5; 4 -> 6, 7), and of each
// other's: node 2 forwards "a" and is the root of "c" while it injects into "a".
TEST(GrimMcFragments, SendersAndTreesInterleaveAtOneReceiverWithoutMixingUp) {
    system::System sys(spec(8));
    FragRun run(sys);
    const std::vector<uint32_t> a = {0, 2, 3, 5, 6}, b = {1, 3, 5, 6}, c = {2, 4, 5, 6, 7};
    run.subscribe({{"a", a}, {"b", b}, {"c", c}});
    const std::vector<Stream> streams = {{7, {"a", "c"}, {200000, 130001, 70000, 4, 65000, 200000, 130001, 64573}},
                                         {2, {"a"}, {150000, 150000, 9, 90000}},
                                         {3, {"b"}, {90000, 300000, 64573, 150000}},
                                         {4, {"c"}, {64573, 250000, 100}}};
    std::vector<size_t> expect(8, 0);
    for (uint32_t m : a) expect[m] += 8;
    for (uint32_t m : b) expect[m] += 4;
    for (uint32_t m : c) expect[m] += 7;
    run.send(streams, expect);
    expect_stream(run, a, streams[0], "a");
    expect_stream(run, c, streams[0], "c");
    expect_stream(run, a, streams[1], "a");
    expect_stream(run, b, streams[2], "b");
    expect_stream(run, c, streams[3], "c");
    EXPECT_EQ(run.got(5).size(), 19u);
    // They did interleave: node 5 had messages of several senders and trees half-built.
    EXPECT_GE(run.busiest(5), 3u);
}

// An inner member injects into a tree whose root recycles through it. Its injections go
// to the root, which refuses one while its multicast queue is full, and that queue frees
// only as the member takes the root's hops. The member's refused injection must not keep
// the member's own recycled copies, acknowledged by its children, from freeing the
// member's multicast queue: the recycle channel never waits on an injection (§8.1.3
// L2053). Before the firmware gave the multicast channel its own scoreboard it did, and
// the root and the member refused each other's hops and injections for ever (nothing
// delivered after the first few fragments; run.send's 400 ms bounds the run). Two
// cases: node 1 injects into its own tree (0 -> 1, 2; 1 -> 3, 4); node 1 forwards tree
// "y" (1 -> 3, 4; node 4 injects into it) while it injects into "x" (0 -> 1, 2; 1 -> 3).
TEST(GrimMcFragments, AnInnerMemberInjectingIntoATreeThatRecyclesThroughItDoesNotDeadlock) {
    struct Case {
        std::map<std::string, std::vector<uint32_t>> trees;
        std::vector<Stream> streams;
    };
    const std::vector<Case> cases = {
        {{{"x", {0, 1, 2, 3, 4}}}, {{1, {"x"}, {300000, 300000, 300000}}}},
        {{{"x", {0, 1, 2, 3}}, {"y", {1, 3, 4}}}, {{1, {"x"}, {300000, 300000, 300000}}, {4, {"y"}, {300000, 300000, 300000}}}},
    };
    for (size_t c = 0; c < cases.size(); ++c) {
        SCOPED_TRACE("case " + std::to_string(c));
        system::System sys(spec(5));
        FragRun run(sys);
        run.subscribe(cases[c].trees);
        std::vector<size_t> expect(5, 0);
        std::vector<uint32_t> messages(5, 0);
        for (const Stream& s : cases[c].streams)
            for (uint32_t m : cases[c].trees.at(s.trees[0])) {
                expect[m] += s.sizes.size();
                for (uint32_t b : s.sizes) messages[m] += messages_for(b);
            }
        run.send(cases[c].streams, expect);
        for (const Stream& s : cases[c].streams) expect_stream(run, cases[c].trees.at(s.trees[0]), s, s.trees[0]);
        for (uint32_t x = 0; x < 5; ++x)
            EXPECT_EQ(endpoint(sys, x).counter("mc_delivered"), messages[x])
                << "node " << x << ": mc_refused_full " << endpoint(sys, x).counter("mc_refused_full") << ", nacks_received "
                << endpoint(sys, x).counter("nacks_received") << ", retransmits " << endpoint(sys, x).counter("retransmits");
        // The root did refuse node 1's injections (its queue was full): the case was met.
        EXPECT_GT(endpoint(sys, 0).counter("mc_refused_full"), 0u);
    }
}

TEST(GrimMcFragments, ThePipelinedImageCutsAtItsOwnFragmentSize) {
    // grim_pipelined fragments at 2 KB (LANai 9, §5.5.3): a 100 KB multicast is 50 fragments.
    system::System sys(spec(4, nlohmann::json::object(), "grim-lanai9", "grim_pipelined"));
    const uint32_t fragment = endpoint(sys, 0).fragment_bytes();
    ASSERT_EQ(fragment, 2048u);
    FragRun run(sys);
    const std::vector<uint32_t> g = {0, 1, 3};
    run.subscribe({{"g", g}});
    const Stream s{2, {"g"}, {100000, GRIM_MTU + 1}};
    run.send({s}, {2, 2, 0, 2});
    expect_stream(run, g, s, "g");
    EXPECT_EQ(endpoint(sys, 3).counter("mc_delivered"), messages_for(100000, fragment) + messages_for(GRIM_MTU + 1, fragment));
}

std::vector<int64_t> timeline() {
    system::System sys(spec(6, {{"grim.am_slots", 4}}));
    FragRun run(sys);
    run.subscribe({{"a", {0, 2, 4}}, {"b", {1, 3, 4}}});
    run.send({{3, {"a"}, {70000, 200000}}, {5, {"b", "a"}, {150000, 64600, 64573}}}, {3, 2, 3, 2, 5, 0});
    std::vector<int64_t> out;
    for (uint32_t n = 0; n < 6; ++n)
        for (const auto& g : run.got(n)) out.push_back(g.at.ps());
    return out;
}

TEST(GrimMcFragments, IsDeterministicToThePicosecond) {
    const auto first = timeline();
    EXPECT_EQ(first.size(), 15u);
    EXPECT_EQ(first, timeline());
}

TEST(GrimMcFragments, BadCallsAreTypedErrorsNamingTheArgument) {
    system::System sys(spec(3));
    niclab::test::TestProcesses procs;
    std::vector<std::string> keys, messages;
    procs.spawn(sys.host_cpu(0), "bad", [&](host::ProcessContext& ctx) {
        Multicast& mc = multicast(sys, 0);
        const uint32_t id = mc.find_tree("t");
        mc.subscribe(ctx, id, 1);
        const uint32_t h = mc.endpoint().register_handler("h", [](host::ProcessContext&, const ActiveMessage&) {});
        auto expect_key = [&](const std::function<void()>& f) { keys.push_back(multicast_error_key(f, messages)); };
        expect_key([&] { mc.send_mc(ctx, id, h, {}, kSrc, uint32_t(Multicast::kMaxMessage + 1)); });
        expect_key([&] { mc.send_mc(ctx, id, 0, {}, kSrc, 100000); });
        expect_key([&] { mc.send_mc(ctx, 99, h, {}, kSrc, 100000); });
    });
    sys.run_for(Time::ms(5));
    procs.rethrow_failures();
    EXPECT_EQ(keys, (std::vector<std::string>{"bytes", "handler", "multicast id"}));
    ASSERT_EQ(messages.size(), 3u);
    EXPECT_NE(messages[0].find("16777217 B"), std::string::npos) << messages[0];
    EXPECT_NE(messages[2].find("no multicast tree 99"), std::string::npos) << messages[2];
}

TEST(GrimMcFragments, TheReassemblyArenaReusesAndMergesFreedBuffers) {
    ReassemblyArena arena(0x1000, 1000);
    const uint64_t x = arena.allocate(100), y = arena.allocate(200), z = arena.allocate(100);
    EXPECT_EQ(x, 0x1000u);
    EXPECT_EQ(y, 0x1000u + 128);  // whole 64-byte lines
    EXPECT_EQ(arena.allocate(1000), 0u);
    arena.release(y);
    arena.release(x);
    EXPECT_EQ(arena.allocate(320), 0x1000u);  // x and y merged
    arena.release(z);
    EXPECT_THROW(arena.release(z), Error);
    EXPECT_EQ(arena.in_use(), 1u);
}

// §8.2.2: a transfer larger than one message, watched from the target host every 2 us:
// the notification word (or the lock) changes only once every byte is in, and before
// that the data is seen partly in (it really came in several messages).
struct Watch {
    bool partial_seen = false, early = false, done = false;
};

void watch(host::ProcessContext& ctx, Watch& w, const std::function<uint32_t()>& word, uint32_t final_value,
           const std::function<std::vector<uint8_t>()>& data, const std::vector<uint8_t>& want) {
    const uint32_t before = word();
    while (!w.done) {
        const uint32_t v = word();
        const std::vector<uint8_t> now = data();
        if (v == before && now != want && now[0] == want[0]) w.partial_seen = true;
        if (v != before) {
            w.early = now != want || v != final_value;
            w.done = true;
        }
        ctx.sleep_for(Time::us(2));
    }
}

TEST(GrimRmFragments, RmpAndRmvLargerThanOneMessageNotifyOnlyAfterTheLastFragment) {
    constexpr uint32_t kBytes = 200000;  // four messages: 3 x 63 KB and the rest
    for (bool by_va : {false, true}) {
        SCOPED_TRACE(by_va ? "rm_write_v" : "rm_write_p");
        system::System sys(spec());
        Endpoint& a = endpoint(sys, 0);
        Endpoint& b = endpoint(sys, 1);
        const std::vector<uint8_t> want = payload(kBytes, 7);
        const uint64_t src_pa = 0x1000'0000, dst_pa = 0x2000'0000, notify_pa = 0x2100'0000;
        uint32_t src_va = 0, dst_va = 0, notify_va = 0;
        if (by_va) {
            src_va = a.malloc_pinned(kBytes);
            dst_va = b.malloc_pinned(kBytes);
            notify_va = b.malloc_pinned(4);
            vwrite(sys, 0, src_va, want);
        } else {
            sys.host_memory(0).write(src_pa, want);
        }
        auto word = [&]() -> uint32_t {
            if (by_va) return b.word(notify_va);
            const auto w = read(sys, 1, notify_pa, 4);
            return uint32_t(w[0]) | uint32_t(w[1]) << 8 | uint32_t(w[2]) << 16 | uint32_t(w[3]) << 24;
        };
        auto data = [&] { return by_va ? vread(sys, 1, dst_va, kBytes) : read(sys, 1, dst_pa, kBytes); };
        Watch w;
        niclab::test::TestProcesses procs;
        procs.spawn(sys.host_cpu(0), "writer", [&](host::ProcessContext& ctx) {
            if (by_va)
                a.rm_write_v(ctx, 1, dst_va, src_va, kBytes, notify_va, 0xC0DE);
            else
                a.rm_write_p(ctx, 1, dst_pa, src_pa, kBytes, notify_pa, 0xC0DE);
        });
        procs.spawn(sys.host_cpu(1), "watcher", [&](host::ProcessContext& ctx) { watch(ctx, w, word, 0xC0DE, data, want); });
        sys.run_for(Time::ms(20));
        procs.rethrow_failures();
        ASSERT_TRUE(w.done) << "the notification never came";
        EXPECT_FALSE(w.early) << "the notification word changed before every byte was in";
        EXPECT_TRUE(w.partial_seen) << "the data never was seen partly in";
        EXPECT_EQ(data(), want);
        EXPECT_EQ(b.counter("rm_delivered"), 4u);  // four RM messages, one notification
        EXPECT_EQ(b.counter("received"), 4u);
    }
}

TEST(GrimRmFragments, RmReadLargerThanOneMessageUnlocksOnlyAfterTheLastFragment) {
    constexpr uint32_t kBytes = 150000;  // three reads
    system::System sys(spec());
    Endpoint& a = endpoint(sys, 0);
    Endpoint& b = endpoint(sys, 1);
    const std::vector<uint8_t> want = payload(kBytes, 3);
    const uint32_t remote = b.malloc_pinned(kBytes), local = a.malloc_pinned(kBytes), lock = a.malloc_pinned(4);
    vwrite(sys, 1, remote, want);
    vwrite(sys, 0, lock, {1, 0, 0, 0});
    Watch w;
    niclab::test::TestProcesses procs;
    procs.spawn(sys.host_cpu(0), "reader", [&](host::ProcessContext& ctx) { a.rm_read(ctx, 1, remote, local, kBytes, lock); });
    procs.spawn(sys.host_cpu(0), "watcher", [&](host::ProcessContext& ctx) {
        watch(ctx, w, [&] { return a.word(lock); }, 0, [&] { return vread(sys, 0, local, kBytes); }, want);
    });
    sys.run_for(Time::ms(20));
    procs.rethrow_failures();
    ASSERT_TRUE(w.done) << "the lock never went to zero";
    EXPECT_FALSE(w.early) << "the lock went to zero before every byte was in";
    EXPECT_TRUE(w.partial_seen);
    EXPECT_EQ(vread(sys, 0, local, kBytes), want);
    EXPECT_EQ(b.counter("rm_reads_served"), 3u);
    EXPECT_EQ(a.counter("rm_read_replies"), 3u);
}

}  // namespace
}  // namespace niclab::grim
