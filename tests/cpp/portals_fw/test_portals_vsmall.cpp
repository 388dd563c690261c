// The very-small-message optimization (seed 000 §5.2): a header-only message - its
// payload of up to 12 bytes travels inside the Portals header - is complete when its
// header arrives. With PTL_VSMALL the firmware posts NEW_MSG_COMPLETE and raises one
// host interrupt; without it (portals_novsmall) the same message takes NEW_MSG, the
// host's RX command, RX_DONE: two interrupts.
#include <gtest/gtest.h>

#include "portals_harness.hpp"

namespace niclab::test {
namespace {

using ptl::Incoming;
using ptl::NodeScript;

struct Outcome {
    NodeScript rx;
    uint64_t rx_interrupts = 0;     // NIC-side count of the receiver's host interrupts
    uint64_t niccb_interrupts = 0;  // the firmware's own count
    uint64_t taken = 0;             // handler runs on the host
};

// `count` header-only messages, one at a time (each sent after the previous one
// completed at the receiver, so interrupts do not batch).
Outcome header_only(const std::string& image, uint32_t count) {
    system::System sys(ptl::spec(2, image));
    Outcome o;
    NodeScript tx;
    for (uint32_t i = 0; i < count; ++i) {
        ptl::Outgoing m;
        m.dst = 1;
        m.tag = i;
        m.inline_data = {uint8_t('a' + i), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, uint8_t(i)};
        tx.sends.push_back(m);
    }
    o.rx.expect_rx = count;
    // Spread the sends out: one message in flight at a time.
    std::vector<std::unique_ptr<ptl::PortalsHost>> hosts;
    hosts.push_back(std::make_unique<ptl::PortalsHost>(sys, 0));
    hosts.push_back(std::make_unique<ptl::PortalsHost>(sys, 1));
    host::Process rxp(sys.host_cpu(1), "rx", [&](host::ProcessContext& ctx) { ptl::run_script(ctx, *hosts[1], o.rx); });
    host::Process txp(sys.host_cpu(0), "tx", [&](host::ProcessContext& ctx) {
        ASSERT_EQ(hosts[0]->init(ctx), PTL_INIT_OK);
        ctx.sleep_for(Time::us(20));  // the receiver is initialized
        for (uint32_t i = 0; i < count; ++i) {
            ptl_hdr h{};
            h.type = PTL_MSG_PUT;
            h.flags = PTL_HDR_INLINE;
            h.src_nid = 0;
            h.match_bits_lo = i;
            h.length = 12;
            std::memcpy(h.inline_data, tx.sends[i].inline_data.data(), 12);
            hosts[0]->write_header(i, h);
            hosts[0]->tx(ctx, i, 1, 0, 0);
            auto e = hosts[0]->next_event(ctx);
            EXPECT_EQ(e.type, PTL_EV_TX_DONE);
            EXPECT_EQ(e.word3, 0u) << "no payload after the header";
            ctx.sleep_for(Time::us(30));  // let the receiver finish before the next one
        }
    });
    sys.run_until(Time::max());
    rxp.rethrow_if_failed();
    txp.rethrow_if_failed();
    EXPECT_TRUE(o.rx.finished && txp.done());
    o.rx_interrupts = sys.nic(1).control().host_interrupts();
    o.niccb_interrupts = hosts[1]->niccb(ptl::kHostInterrupts);
    o.taken = hosts[1]->interrupts_taken();
    for (const Incoming& in : o.rx.received) {
        uint32_t i = in.hdr.match_bits_lo;
        EXPECT_EQ(in.msg_bytes, PTL_HDR_BYTES);
        EXPECT_EQ(in.hdr.flags, PTL_HDR_INLINE);
        EXPECT_EQ(0, std::memcmp(in.hdr.inline_data, tx.sends.at(i).inline_data.data(), 12)) << "inline payload " << i;
    }
    return o;
}

constexpr uint32_t kCount = 5;

TEST(PortalsVsmall, HeaderOnlyMessageCompletesWithOneInterrupt) {
    Outcome o = header_only("portals", kCount);
    ASSERT_EQ(o.rx.received.size(), kCount);
    for (const Incoming& in : o.rx.received) EXPECT_TRUE(in.complete_at_header);
    for (uint32_t t : o.rx.event_types) EXPECT_EQ(t, PTL_EV_NEW_MSG_COMPLETE);
    // One interrupt for INIT's result, then one per message.
    EXPECT_EQ(o.rx_interrupts, 1u + kCount);
    EXPECT_EQ(o.niccb_interrupts, o.rx_interrupts);
    EXPECT_EQ(o.taken, o.rx_interrupts);
}

TEST(PortalsVsmall, WithoutTheOptimizationEveryMessageTakesTwoInterrupts) {
    Outcome o = header_only("portals_novsmall", kCount);
    ASSERT_EQ(o.rx.received.size(), kCount);
    for (const Incoming& in : o.rx.received) {
        EXPECT_FALSE(in.complete_at_header);
        EXPECT_EQ(in.status, NICLAB_DMA_OK);
        EXPECT_EQ(in.bytes, 0u);
    }
    std::vector<uint32_t> want;
    for (uint32_t i = 0; i < kCount; ++i) want.insert(want.end(), {PTL_EV_NEW_MSG, PTL_EV_RX_DONE});
    EXPECT_EQ(o.rx.event_types, want);
    EXPECT_EQ(o.rx_interrupts, 1u + 2 * kCount);
    EXPECT_EQ(o.niccb_interrupts, o.rx_interrupts);
}

TEST(PortalsVsmall, MessagesWithPayloadStillTakeTheTwoInterruptPath) {
    // VSMALL applies only to messages that fit in the header packet.
    system::System sys(ptl::spec(2));
    auto want = ptl::put_pattern(sys, 0, 0x100001, 1, 5);
    ptl::NodeScript tx, rx;
    tx.sends.push_back({1, 0, 0x100001, 1, {}, {}});
    rx.expect_rx = 1;
    rx.place = [](const Incoming&) { return ptl::Placement{0x200003, 1, {}}; };
    ptl::run(sys, {{0, &tx}, {1, &rx}});
    ASSERT_TRUE(rx.finished);
    EXPECT_EQ(rx.event_types, (std::vector<uint32_t>{PTL_EV_NEW_MSG, PTL_EV_RX_DONE}));
    EXPECT_EQ(ptl::read(sys, 1, 0x200003, 1), want);
}

}  // namespace
}  // namespace niclab::test
