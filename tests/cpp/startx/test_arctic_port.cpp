// The StarT-X port on net::Network's Arctic fat tree (arctic_port.hpp; seed 002 §5.1 L151):
// the priority bit picks the virtual network, a fixed up-route keeps one path and FIFO order
// even under cross traffic, the random up-route bit spreads messages over the spines and can
// reorder them (only when set), and a full NIU receive queue backpressures into the network.
#include <gtest/gtest.h>

#include <deque>
#include <memory>
#include <vector>

#include "niclab/systems/startx/arctic_port.hpp"
#include "startx_test_support.hpp"

namespace niclab::startx::test {
namespace {

// Four nodes, one per leaf, two spines (the model's default for up to four nodes).
net::NetworkParams arctic() { return arctic_network_params(160, 2, Time::ns(150), Time{}, 4, 1); }
const net::FatTree kTree{4, 1, 2};

// Sends what it is given as fast as the port takes it; records what arrives.
struct Endpoint final : PortListener {
    ArcticPort* port = nullptr;
    std::deque<WireMessage> to_send;
    std::vector<WireMessage> got;
    bool refuse_high = false;

    void pump() {
        while (!to_send.empty() && port->can_inject(to_send.front().header().priority)) {
            port->inject(to_send.front());
            to_send.pop_front();
        }
    }
    void injection_ready(Priority) override { pump(); }
    bool offer(const WireMessage& m) override {
        if (refuse_high && m.header().priority == Priority::high) return false;
        got.push_back(m);
        return true;
    }
};

struct Fabric {
    Fabric() : net(k, kTree, arctic()) {
        for (uint32_t n = 0; n < 4; ++n) {
            ports.push_back(std::make_unique<ArcticPort>(net, n));
            ends[n].port = ports.back().get();
            ports.back()->attach(ends[n]);
        }
    }
    // `count` 96-byte messages from `src` to `dst`, word 1 numbering them from `first`.
    void queue(uint32_t src, uint32_t dst, uint32_t count, Priority p = Priority::high, bool random_up = false,
               uint32_t first = 0) {
        for (uint32_t i = 0; i < count; ++i) {
            Message m = make_msg(uint16_t(dst), p, kMaxPayloadWords, first + i);
            Header h = m.header();
            h.random_up = random_up;
            m.words[0] = h.pack();
            WireMessage w;
            w.msg = m;
            w.source = src;
            w.crc = message_crc(m);
            ends[src].to_send.push_back(w);
        }
    }
    void run() {
        for (auto& e : ends) k.schedule_in(Time{}, [&e] { e.pump(); });
        k.run_until(Time::ms(10), true);
    }
    // Packets node 0's leaf sent up each spine link.
    std::vector<uint64_t> up_counts() const {
        const uint32_t leaf = net.topology().router_of(0);
        const net::PortRange up = net.topology().up_ports(leaf);
        std::vector<uint64_t> c;
        for (uint8_t p = up.first; p < up.first + up.count; ++p)
            c.push_back(net.link(net.router(leaf).out_link(p)).stats().packets);
        return c;
    }
    // Word 1 of what `dst` got from `src`, in arrival order.
    std::vector<uint32_t> order(uint32_t dst, uint32_t src) const {
        std::vector<uint32_t> o;
        for (const WireMessage& w : ends[dst].got)
            if (w.source == src) o.push_back(w.msg.words[1]);
        return o;
    }
    sim::Kernel k;
    net::Network net;
    std::vector<std::unique_ptr<ArcticPort>> ports;
    Endpoint ends[4];
};

bool in_order(const std::vector<uint32_t>& v) {
    for (size_t i = 1; i < v.size(); ++i)
        if (v[i] < v[i - 1]) return false;
    return true;
}

TEST(ArcticPort, PriorityPicksTheVirtualNetwork) {
    EXPECT_EQ(ArcticPort::vnet_of(Priority::high), 0);
    EXPECT_EQ(ArcticPort::vnet_of(Priority::low), 1);
    Fabric f;
    f.ends[1].refuse_high = true;  // node 1's high-priority receive queue is full
    f.queue(0, 1, 3, Priority::high, false, 0);
    f.queue(0, 1, 3, Priority::low, false, 10);
    f.run();
    // High waits in its vnet; low passes on its own.
    EXPECT_EQ(f.order(1, 0), (std::vector<uint32_t>{10, 11, 12}));
    EXPECT_GT(f.net.stats().deliveries_refused, 0u);
    EXPECT_EQ(f.net.packets_in_flight(), 3u);
    f.ends[1].refuse_high = false;
    f.ports[1]->receive_space_freed(Priority::high);
    f.k.run_until(Time::ms(20), true);
    EXPECT_EQ(f.order(1, 0), (std::vector<uint32_t>{10, 11, 12, 0, 1, 2}));
    for (const WireMessage& w : f.ends[1].got) EXPECT_EQ(w.crc, message_crc(w.msg));
}

TEST(ArcticPort, AFixedUpRouteKeepsOnePathAndFifoOrderUnderCrossTraffic) {
    Fabric f;
    f.queue(2, 1, 200);            // cross traffic into node 1's leaf
    f.queue(0, 1, 200, Priority::high, false, 0);
    f.run();
    ASSERT_EQ(f.order(1, 0).size(), 200u);
    EXPECT_TRUE(in_order(f.order(1, 0)));
    const auto up = f.up_counts();
    ASSERT_EQ(up.size(), 2u);
    EXPECT_TRUE((up[0] == 200 && up[1] == 0) || (up[0] == 0 && up[1] == 200)) << up[0] << " / " << up[1];
}

TEST(ArcticPort, TheRandomUpRouteSpreadsOverTheSpinesAndMayReorder) {
    Fabric f;
    f.queue(2, 1, 200);  // fixed: congests one spine's link down to node 1's leaf
    f.queue(0, 1, 200, Priority::high, true, 0);
    f.run();
    const auto got = f.order(1, 0);
    ASSERT_EQ(got.size(), 200u);
    const auto up = f.up_counts();
    EXPECT_GT(up[0], 40u);  // both spines carry a fair share
    EXPECT_GT(up[1], 40u);
    EXPECT_FALSE(in_order(got));  // the uncongested spine overtakes the congested one
}

TEST(ArcticPort, AFullNiuReceiveQueueHoldsMessagesInTheNetwork) {
    sim::Kernel k;
    net::Network net(k, kTree, arctic());
    ArcticPort pa(net, 0), pb(net, 1);
    Node a(k, pa, 0), b(k, pb, 1);
    constexpr uint32_t kN = 30;  // more than the 20 a receive queue holds (002 §4 L126)
    std::vector<std::unique_ptr<host::Process>> procs;
    procs.push_back(std::make_unique<host::Process>(a.cpu, "send", [&](host::ProcessContext& ctx) {
        for (uint32_t i = 0; i < kN; ++i) {
            while (read_status(ctx, a).tx_space[0] == 0) ctx.compute(Time::ns(200));
            pio_send(ctx, a, make_msg(1, Priority::high, 6, i));
        }
    }));
    procs.push_back(std::make_unique<host::Process>(b.cpu, "recv", [&](host::ProcessContext& ctx) {
        ctx.sleep_for(Time::us(300));  // long enough for all 30 to have been sent
        EXPECT_EQ(b.niu.rx_messages(Priority::high), 20u);
        EXPECT_GT(net.stats().deliveries_refused, 0u);
        EXPECT_GT(net.packets_in_flight(), 0u);  // the rest wait in the fabric
        for (uint32_t i = 0; i < kN; ++i) EXPECT_TRUE(same(pio_recv(ctx, b, Priority::high), make_msg(1, Priority::high, 6, i))) << i;
    }));
    k.run_until(Time::ms(10), true);
    for (auto& p : procs) {
        p->rethrow_if_failed();
        EXPECT_TRUE(p->done()) << p->name();
    }
    EXPECT_EQ(net.packets_in_flight(), 0u);
}

}  // namespace
}  // namespace niclab::startx::test
