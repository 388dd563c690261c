// Multicast by NI recycling (seed 004 §8.1): trees of every size 2..8, the sender the
// root or not, several trees crossing at once; every byte at every subscriber exactly
// once and in ticket order; a full receiver NACKs and still gets everything once in
// order; unsubscribe / resubscribe (in-band tree updates, a root handed over);
// determinism; bad calls name their argument.
#include "grim_test_support.hpp"

#include <map>
#include <set>

#include "niclab/fw/grim_fw.h"

namespace niclab::grim {
namespace {

using namespace test;

constexpr uint64_t kSrc = 0x1000'0000;
// Sizes across words, packets and the MTU (the multicast queue holds two of the largest).
const std::vector<uint32_t> kSizes = {4, 1, 100, 1500, 9000, GRIM_MTU, 4096, 33};

uint32_t size_of(uint32_t k) { return kSizes[k % kSizes.size()]; }
uint32_t tag(uint32_t sender, uint32_t k) { return sender * 1000 + k; }

struct Arrival {
    uint32_t sender, k, tree;
    Time at;
};

class McRun {
public:
    explicit McRun(system::System& sys) : sys_(sys), got_(sys.node_count()) {}

    // Phase 1: every node registers the handler; the named trees get their members.
    void subscribe(const std::map<std::string, std::vector<uint32_t>>& trees) {
        niclab::test::TestProcesses procs;
        for (uint32_t n = 0; n < sys_.node_count(); ++n)
            procs.spawn(sys_.host_cpu(n), "setup", [this, n, trees](host::ProcessContext& ctx) {
                register_handler(n);
                for (const auto& [name, members] : trees) {
                    const uint32_t id = multicast(sys_, n).find_tree(name);
                    ids_[name] = id;
                    if (std::find(members.begin(), members.end(), n) != members.end()) multicast(sys_, n).subscribe(ctx, id, 1);
                }
            });
        // One after another would be the same: each subscription waits for its update.
        sys_.run_for(Time::ms(20));
        procs.rethrow_failures();
    }

    void unsubscribe(uint32_t node, const std::string& name) {
        niclab::test::TestProcesses procs;
        procs.spawn(sys_.host_cpu(node), "leave", [&](host::ProcessContext& ctx) { multicast(sys_, node).unsubscribe(ctx, ids_.at(name), 1); });
        sys_.run_for(Time::ms(5));
        procs.rethrow_failures();
    }
    void resubscribe(uint32_t node, const std::string& name) {
        niclab::test::TestProcesses procs;
        procs.spawn(sys_.host_cpu(node), "join", [&](host::ProcessContext& ctx) { multicast(sys_, node).subscribe(ctx, ids_.at(name), 1); });
        sys_.run_for(Time::ms(5));
        procs.rethrow_failures();
    }

    // Phase 2: each (sender, tree) sends `n` messages; every node polls (node `late`
    // only after `delay`) until it has `expect[node]` of them.
    void send(const std::vector<std::pair<uint32_t, std::string>>& senders, uint32_t n, const std::vector<size_t>& expect,
              int late = -1, Time delay = Time()) {
        niclab::test::TestProcesses procs;
        for (auto [s, name] : senders)
            procs.spawn(sys_.host_cpu(s), "sender", [this, s, name, n](host::ProcessContext& ctx) {
                Multicast& mc = multicast(sys_, s);
                const uint32_t h = mc.endpoint().resolve("mc");
                for (uint32_t k = base_; k < base_ + n; ++k) {
                    const uint32_t t = tag(s, k);
                    sys_.host_memory(s).write(kSrc, payload(size_of(k), t));
                    mc.send_mc(ctx, ids_.at(name), h, {t, s, ids_.at(name), 0}, kSrc, size_of(k));
                }
            });
        for (uint32_t r = 0; r < sys_.node_count(); ++r)
            procs.spawn(sys_.host_cpu(r), "receiver", [this, r, expect, late, delay](host::ProcessContext& ctx) {
                if (int(r) == late) ctx.sleep_for(delay);
                endpoint(sys_, r).wait(ctx, [&] { return got_[r].size() >= expect[r]; });
            });
        sys_.run_for(Time::ms(200));
        procs.rethrow_failures();
        base_ += n;
    }

    const std::vector<Arrival>& got(uint32_t node) const { return got_[node]; }
    uint32_t id(const std::string& name) const { return ids_.at(name); }

private:
    void register_handler(uint32_t n) {
        endpoint(sys_, n).register_handler("mc", [this, n](host::ProcessContext& ctx, const ActiveMessage& m) {
            const uint32_t t = m.args[0];
            EXPECT_EQ(m.bytes, size_of(t % 1000)) << "node " << n << " message " << t;
            EXPECT_EQ(read(sys_, n, m.payload_addr, m.bytes), payload(size_of(t % 1000), t)) << "node " << n << " message " << t;
            EXPECT_EQ(m.src_node, m.args[1]);  // the injecting endpoint's node survives the hops
            got_[n].push_back({m.args[1], t % 1000, m.args[2], ctx.now()});
        });
    }

    system::System& sys_;
    std::vector<std::vector<Arrival>> got_;
    std::map<std::string, uint32_t> ids_;
    uint32_t base_ = 0;
};

// Each of `members` got messages first..first+n-1 of `sender` on `tree`, in order, once.
void expect_all_once_in_order(const McRun& run, const std::vector<uint32_t>& members, uint32_t sender, uint32_t tree, uint32_t first, uint32_t n) {
    for (uint32_t m : members) {
        std::vector<uint32_t> ks;
        for (const auto& a : run.got(m))
            if (a.sender == sender && a.tree == tree) ks.push_back(a.k);
        std::vector<uint32_t> want(n);
        for (uint32_t i = 0; i < n; ++i) want[i] = first + i;
        EXPECT_EQ(ks, want) << "node " << m << ", sender " << sender << ", tree " << tree;
    }
}

std::vector<size_t> expecting(uint32_t nodes, const std::vector<uint32_t>& members, size_t per) {
    std::vector<size_t> e(nodes, 0);
    for (uint32_t m : members) e[m] = per;
    return e;
}

TEST(GrimMulticast, EveryGroupSizeFromTwoToEightDeliversEveryByteOnceInOrder) {
    for (uint32_t size = 2; size <= 8; ++size) {
        SCOPED_TRACE("group of " + std::to_string(size));
        // Nine nodes: the members are spread over the ids; the sender is the root once
        // and a node outside the group once (node 8 when it is not a member).
        system::System sys(spec(9));
        std::vector<uint32_t> members;
        for (uint32_t i = 0; members.size() < size; ++i) members.push_back((i * 5 + 2) % 9);
        std::sort(members.begin(), members.end());
        McRun run(sys);
        run.subscribe({{"g", members}});
        // The tree: the heap of the members in ascending order; ancestors have smaller ids.
        EXPECT_EQ(multicast(sys, 0).tree_nodes(run.id("g")), members);
        for (size_t i = 0; i < members.size(); ++i) {
            const grim_mc_tree t = multicast(sys, members[i]).table(run.id("g"));
            EXPECT_TRUE(t.member);
            EXPECT_EQ(bool(t.root), i == 0);
            std::vector<uint32_t> kids;
            for (size_t c = 2 * i + 1; c <= 2 * i + 2 && c < members.size(); ++c) kids.push_back(members[c]);
            ASSERT_EQ(t.children, kids.size());
            for (size_t c = 0; c < kids.size(); ++c) {
                EXPECT_EQ(t.child[c], kids[c]);
                EXPECT_GT(kids[c], members[i]);
            }
        }
        const uint32_t outsider = std::find(members.begin(), members.end(), 8u) == members.end() ? 8 : members.back();
        const uint32_t n = 10;
        auto sum = [&](const char* counter) {
            uint64_t s = 0;
            for (uint32_t x = 0; x < 9; ++x) s += endpoint(sys, x).counter(counter);
            return s;
        };
        const uint64_t forwarded_before = sum("mc_forwarded");
        run.send({{members[0], "g"}}, n, expecting(9, members, n));
        expect_all_once_in_order(run, members, members[0], run.id("g"), 0, n);
        run.send({{outsider, "g"}}, n, expecting(9, members, 2 * n));
        expect_all_once_in_order(run, members, outsider, run.id("g"), n, n);
        for (uint32_t x = 0; x < 9; ++x)
            if (std::find(members.begin(), members.end(), x) == members.end()) {
                EXPECT_TRUE(run.got(x).empty()) << "node " << x;
            }
        // Every NI copied what it forwarded once (one copy for all its children).
        // One copy to each child: every member but the root got each message once.
        EXPECT_EQ(sum("mc_forwarded") - forwarded_before, 2 * n * (members.size() - 1));
        EXPECT_EQ(sum("mc_ticket_refused"), 0u);
        EXPECT_EQ(sum("mc_misrouted"), 0u);
    }
}

TEST(GrimMulticast, SeveralTreesCrossingAtOnceDeliverEverythingInOrderWithoutDeadlock) {
    system::System sys(spec(8, {{"grim.am_slots", 4}}));
    McRun run(sys);
    const std::vector<uint32_t> a = {0, 2, 3, 5, 7}, b = {1, 2, 4, 5, 6, 7}, c = {0, 1, 3, 4, 6};
    run.subscribe({{"a", a}, {"b", b}, {"c", c}});
    const uint32_t n = 12;
    // Senders inside and outside each tree, all at once; node 7 sends on two trees.
    std::vector<size_t> expect(8, 0);
    for (uint32_t m : a) expect[m] += n;
    for (uint32_t m : b) expect[m] += 2 * n;
    for (uint32_t m : c) expect[m] += n;
    run.send({{7, "a"}, {6, "b"}, {0, "b"}, {4, "c"}}, n, expect);
    expect_all_once_in_order(run, a, 7, run.id("a"), 0, n);
    expect_all_once_in_order(run, b, 6, run.id("b"), 0, n);
    expect_all_once_in_order(run, b, 0, run.id("b"), 0, n);
    expect_all_once_in_order(run, c, 4, run.id("c"), 0, n);
    // One tree's messages from two senders arrive in the same (ticket) order everywhere.
    std::vector<std::vector<uint32_t>> orders;
    for (uint32_t m : b) {
        std::vector<uint32_t> o;
        for (const auto& x : run.got(m))
            if (x.tree == run.id("b")) o.push_back(tag(x.sender, x.k));
        orders.push_back(o);
    }
    for (const auto& o : orders) EXPECT_EQ(o, orders[0]);
}

TEST(GrimMulticast, AFullReceiverIsNackedAndStillGetsEverythingOnceInOrder) {
    system::System sys(spec(6, {{"grim.am_slots", 2}}));
    McRun run(sys);
    const std::vector<uint32_t> g = {0, 1, 2, 3, 4, 5};
    run.subscribe({{"g", g}});
    const uint32_t n = 24;
    // Node 1 (an inner NI: children 3 and 4) polls only after 20 ms (the sender's
    // injection of all 24 takes a few).
    run.send({{0, "g"}}, n, expecting(6, g, n), 1, Time::ms(20));
    expect_all_once_in_order(run, g, 0, run.id("g"), 0, n);
    EXPECT_GT(endpoint(sys, 1).counter("mc_refused_full"), 0u);
    EXPECT_GT(endpoint(sys, 1).counter("nacks_sent"), 0u);
    EXPECT_GT(endpoint(sys, 0).counter("retransmits"), 0u);
    EXPECT_EQ(endpoint(sys, 1).counter("mc_delivered"), n);
}

TEST(GrimMulticast, UnsubscribeAndResubscribeUpdateTheTreeInBand) {
    system::System sys(spec(6));
    McRun run(sys);
    run.subscribe({{"g", {1, 2, 3, 5}}});
    const uint32_t id = run.id("g");
    run.send({{4, "g"}}, 6, expecting(6, {1, 2, 3, 5}, 6));
    // The root leaves: node 2 becomes the root (the old root hands the update over).
    run.unsubscribe(1, "g");
    EXPECT_EQ(multicast(sys, 0).tree_nodes(id), (std::vector<uint32_t>{2, 3, 5}));
    EXPECT_TRUE(multicast(sys, 2).table(id).root);
    EXPECT_FALSE(multicast(sys, 1).table(id).member);
    std::vector<size_t> e = {0, 6, 12, 12, 0, 12};
    run.send({{4, "g"}}, 6, e);
    // A smaller id joins: node 0 is the new root; node 1 rejoins (it left the tree:
    // it takes the update's ticket as its base).
    run.resubscribe(0, "g");
    run.resubscribe(1, "g");
    EXPECT_EQ(multicast(sys, 0).tree_nodes(id), (std::vector<uint32_t>{0, 1, 2, 3, 5}));
    EXPECT_TRUE(multicast(sys, 0).table(id).root);
    EXPECT_FALSE(multicast(sys, 2).table(id).root);
    e = {6, 12, 18, 18, 0, 18};
    run.send({{5, "g"}}, 6, e);
    expect_all_once_in_order(run, {1}, 4, id, 0, 6);
    expect_all_once_in_order(run, {2, 3, 5}, 4, id, 0, 12);
    expect_all_once_in_order(run, {0, 1, 2, 3, 5}, 5, id, 12, 6);
    for (uint32_t x : {1u}) {
        size_t from4 = 0;
        for (const auto& a : run.got(x)) from4 += a.sender == 4;
        EXPECT_EQ(from4, 6u) << "node 1 got only what was sent while it subscribed";
    }
    for (uint32_t x = 0; x < 6; ++x) EXPECT_EQ(endpoint(sys, x).counter("mc_misrouted"), 0u);
}

// §8.1.5 L2075's case: an update's new path overtakes data still on the old one. Tree
// {0,1,2,3} (0 -> 1, 2; 1 -> 3); node 3 polls late, so node 1's copies to it are NACKed
// (full queue) and wait; node 2 leaves meanwhile: the new tree {0,1,3} has 0 -> 1, 3, so
// the update reaches node 3 straight from node 0, ahead of the old data. Node 3 must
// refuse it (its ticket is not the one expected: a NACK) until the old data is in.
TEST(GrimMulticast, AnUpdateThatOvertakesOldDataIsRefusedUntilTheDataIsIn) {
    system::System sys(spec(4, {{"grim.am_slots", 2}}));
    McRun run(sys);
    run.subscribe({{"g", {0, 1, 2, 3}}});
    const uint32_t id = run.id("g");
    niclab::test::TestProcesses procs;
    procs.spawn(sys.host_cpu(2), "leave", [&](host::ProcessContext& ctx) {
        ctx.sleep_for(Time::us(400));
        multicast(sys, 2).unsubscribe(ctx, id, 1);
    });
    // Five messages of 1 B to 9000 B: they fit the multicast queues, so node 0's queue
    // never blocks and its update can overtake.
    run.send({{0, "g"}}, 5, {5, 5, 0, 5}, 3, Time::ms(3));
    sys.run_for(Time::ms(10));
    procs.rethrow_failures();
    expect_all_once_in_order(run, {0, 1, 3}, 0, id, 0, 5);
    // Node 2 got a prefix, in order, once.
    std::vector<uint32_t> ks;
    for (const auto& a : run.got(2)) ks.push_back(a.k);
    for (size_t i = 0; i < ks.size(); ++i) EXPECT_EQ(ks[i], i);
    EXPECT_EQ(multicast(sys, 0).tree_nodes(id), (std::vector<uint32_t>{0, 1, 3}));
    EXPECT_GT(endpoint(sys, 3).counter("mc_refused_full"), 0u);
    EXPECT_GT(endpoint(sys, 3).counter("mc_ticket_refused"), 0u);
    const grim_mc_tree t = multicast(sys, 3).table(id);
    EXPECT_EQ(t.expected, multicast(sys, 0).table(id).next_ticket);  // every ticket seen, in order
}

TEST(GrimMulticast, EveryDataPathImageRecyclesTheSame) {
    // The pipelined and cut-through images (§5.5) take multicast hops whole; the
    // injection to a remote root streams on the cut-through image.
    for (const char* image : {"grim_pipelined", "grim_cutthrough", "grim_traced"}) {
        SCOPED_TRACE(image);
        system::System sys(spec(6, nlohmann::json::object(), "grim-lanai9", image));
        McRun run(sys);
        const std::vector<uint32_t> g = {0, 2, 3, 5};
        run.subscribe({{"g", g}});
        run.send({{4, "g"}, {0, "g"}}, 8, expecting(6, g, 16));
        expect_all_once_in_order(run, g, 4, run.id("g"), 0, 8);
        expect_all_once_in_order(run, g, 0, run.id("g"), 0, 8);
    }
}

TEST(GrimMulticast, BroadcastReachesEveryNode) {
    system::System sys(spec(5));
    std::vector<std::vector<uint32_t>> got(5);
    niclab::test::TestProcesses procs;
    for (uint32_t n = 0; n < 5; ++n)
        procs.spawn(sys.host_cpu(n), "node", [&, n](host::ProcessContext& ctx) {
            Endpoint& ep = endpoint(sys, n);
            const uint32_t h = ep.register_handler("b", [&, n](host::ProcessContext&, const ActiveMessage& m) {
                EXPECT_EQ(read(sys, n, m.payload_addr, m.bytes), payload(m.bytes, m.args[0]));
                got[n].push_back(m.args[0]);
            });
            if (n == 3) {
                ctx.sleep_for(Time::us(50));
                for (uint32_t k = 0; k < 4; ++k) {
                    sys.host_memory(3).write(kSrc, payload(200 + k, k));
                    multicast(sys, 3).broadcast(ctx, h, {k, 0, 0, 0}, kSrc, 200 + k);
                }
            }
            ep.wait(ctx, [&] { return got[n].size() == 4; });
        });
    sys.run_for(Time::ms(20));
    procs.rethrow_failures();
    for (uint32_t n = 0; n < 5; ++n) EXPECT_EQ(got[n], (std::vector<uint32_t>{0, 1, 2, 3})) << "node " << n;
}

std::vector<int64_t> timeline() {
    system::System sys(spec(7, {{"grim.am_slots", 2}}));
    McRun run(sys);
    run.subscribe({{"a", {0, 1, 2, 4, 6}}, {"b", {1, 3, 5, 6}}});
    std::vector<size_t> e = {8, 16, 8, 8, 8, 8, 16};
    run.send({{3, "a"}, {0, "b"}}, 8, e, 2, Time::us(500));
    std::vector<int64_t> out;
    for (uint32_t n = 0; n < 7; ++n)
        for (const auto& a : run.got(n)) out.push_back(a.at.ps());
    return out;
}

TEST(GrimMulticast, IsDeterministicToThePicosecond) {
    const auto a = timeline();
    EXPECT_EQ(a.size(), 72u);
    EXPECT_EQ(a, timeline());
}

TEST(GrimMulticast, BadCallsNameTheirArgument) {
    system::System sys(spec(3));
    niclab::test::TestProcesses procs;
    std::vector<std::string> keys, messages;
    procs.spawn(sys.host_cpu(1), "bad", [&](host::ProcessContext& ctx) {
        Multicast& mc = multicast(sys, 1);
        auto expect_key = [&](const std::function<void()>& f) {
            try {
                f();
                keys.push_back("(none)");
            } catch (const MulticastError& e) {
                keys.push_back(e.key());
                messages.push_back(e.what());
            }
        };
        expect_key([&] { mc.subscribe(ctx, 42, 1); });
        expect_key([&] { mc.send_mc(ctx, 7, 1, {}, kSrc, 4); });
        const uint32_t id = mc.find_tree("t");
        expect_key([&] { mc.subscribe(ctx, id, 0x2); });
        expect_key([&] { mc.subscribe(ctx, id, 0); });
        expect_key([&] { mc.unsubscribe(ctx, id, 0x80); });
        expect_key([&] { mc.find_tree(""); });
    });
    sys.run_for(Time::ms(1));
    procs.rethrow_failures();
    EXPECT_EQ(keys, (std::vector<std::string>{"multicast id", "multicast id", "channels", "channels", "channels", "name"}));
    ASSERT_EQ(messages.size(), 6u);
    EXPECT_NE(messages[0].find("no multicast tree 42"), std::string::npos) << messages[0];
    EXPECT_NE(messages[2].find("0x02"), std::string::npos) << messages[2];
}

}  // namespace
}  // namespace niclab::grim
