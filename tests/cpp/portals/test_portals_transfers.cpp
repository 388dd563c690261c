// Put, get, reply and ack between two Library objects (SAND2006-0420 §3.13): the
// headers and payload regions each side produces, and the events at both ends.
#include "portals_test_support.hpp"

namespace niclab::portals::test {
namespace {

constexpr ptl_process_id_t kAnyone{PTL_NID_ANY, PTL_PID_ANY};

struct Pair : ::testing::Test {
    Library ini{kInitiator, 100};
    Library tgt{kTarget, 200};
    ptl_handle_eq_t ini_eq = ini.eq_alloc(32);
    ptl_handle_eq_t tgt_eq = tgt.eq_alloc(32);

    ptl_handle_md_t target_md(const ptl_md_t& md, ptl_unlink_t unlink = PTL_RETAIN, ptl_match_bits_t bits = 0x77) {
        ptl_handle_me_t me = tgt.me_attach(kPortal, kAnyone, bits, 0, PTL_RETAIN, PTL_INS_AFTER);
        return tgt.md_attach(me, md, unlink);
    }
};

TEST_F(Pair, PutWithAck) {
    const ptl_handle_md_t tmd = target_md(contiguous(0x5000, 64, PTL_MD_OP_PUT, tgt_eq));
    const ptl_handle_md_t imd = ini.md_bind(contiguous(0x1000, 24, 0, ini_eq), PTL_RETAIN);

    Send put = ini.put(imd, PTL_ACK_REQ, kTarget, kPortal, 3, 0x77, 0, 0xABCDEF0123456789ull, at(1));
    EXPECT_EQ(put.hdr.type, PTL_MSG_PUT);
    EXPECT_EQ(put.hdr.flags & PTL_HDR_ACK_REQ, PTL_HDR_ACK_REQ);
    EXPECT_NE(put.hdr.md_cookie, 0u);
    EXPECT_EQ(put.hdr.length, 24u);
    EXPECT_EQ(put.hdr.src_nid, kInitiator.nid);
    EXPECT_EQ(put.hdr.src_pid, kInitiator.pid);
    EXPECT_EQ(put.hdr.dst_pid, kTarget.pid);
    EXPECT_EQ(put.hdr.pt_index, kPortal);
    EXPECT_EQ(put.hdr.ac_index, 3u);
    EXPECT_EQ(put.hdr.uid, 100u);
    EXPECT_EQ(bits_of(put.hdr), 0x77u);
    EXPECT_EQ(put.dst, kTarget.nid);
    EXPECT_EQ(put.payload, (Regions{{0x1000, 24}}));
    EXPECT_EQ(put.length, 24u);
    EXPECT_NE(put.op, 0u);
    EXPECT_EQ(ini.status().messages_out, 1u);

    Receive r = tgt.parse(put.hdr, kInitiator.nid, at(2));
    EXPECT_EQ(r.action, Receive::Action::deposit);
    EXPECT_EQ(r.regions, (Regions{{0x5000, 24}}));
    EXPECT_EQ(r.mlength, 24u);
    EXPECT_EQ(r.entries_examined, 1u);
    std::optional<Send> ack = tgt.receive_done(r.op, true, at(3));
    ASSERT_TRUE(ack.has_value());
    EXPECT_EQ(ack->hdr.type, PTL_MSG_ACK);
    EXPECT_EQ(ack->hdr.md_cookie, put.hdr.md_cookie);
    EXPECT_EQ(ack->hdr.mlength, 24u);
    EXPECT_EQ(ack->hdr.offset, 0u);
    EXPECT_EQ(ack->hdr.dst_pid, kInitiator.pid);
    EXPECT_EQ(ack->hdr.src_nid, kTarget.nid);
    EXPECT_EQ(ack->hdr.src_pid, kTarget.pid);
    EXPECT_EQ(ack->dst, kInitiator.nid);
    EXPECT_TRUE(ack->payload.empty());
    EXPECT_EQ(ack->length, 0u);
    EXPECT_NE(ack->op, 0u);
    EXPECT_NE(ack->op, r.op);
    tgt.send_done(ack->op, true, at(4));

    ini.send_done(put.op, true, at(3));
    Receive ar = ini.parse(ack->hdr, kTarget.nid, at(5));
    EXPECT_EQ(ar.action, Receive::Action::discard);
    EXPECT_EQ(ar.entries_examined, 0u);

    auto iev = drain(ini, ini_eq);
    ASSERT_EQ(names(kinds(iev)), "PTL_EVENT_SEND_START PTL_EVENT_SEND_END PTL_EVENT_ACK");
    EXPECT_EQ(iev[0].initiator, kInitiator);
    EXPECT_EQ(iev[0].hdr_data, 0xABCDEF0123456789ull);
    EXPECT_EQ(iev[0].mlength, 24u);
    EXPECT_EQ(iev[0].md_handle, imd);
    EXPECT_EQ(iev[0].time, at(1));
    EXPECT_EQ(iev[1].time, at(3));
    EXPECT_EQ(iev[2].initiator, kTarget);  // the ack comes from the target
    EXPECT_EQ(iev[2].mlength, 24u);
    EXPECT_EQ(iev[2].match_bits, 0x77u);
    EXPECT_EQ(iev[2].pt_index, kPortal);
    EXPECT_EQ(iev[2].md_handle, imd);
    EXPECT_EQ(iev[2].uid, 200u);
    EXPECT_EQ(iev[2].time, at(5));

    auto tev = drain(tgt, tgt_eq);
    ASSERT_EQ(names(kinds(tev)), "PTL_EVENT_PUT_START PTL_EVENT_PUT_END");
    for (const auto& e : tev) {
        EXPECT_EQ(e.initiator, kInitiator);
        EXPECT_EQ(e.uid, 100u);
        EXPECT_EQ(e.pt_index, kPortal);
        EXPECT_EQ(e.match_bits, 0x77u);
        EXPECT_EQ(e.rlength, 24u);
        EXPECT_EQ(e.mlength, 24u);
        EXPECT_EQ(e.offset, 0u);
        EXPECT_EQ(e.md_handle, tmd);
        EXPECT_EQ(e.hdr_data, 0xABCDEF0123456789ull);
        EXPECT_EQ(e.md.start, 0x5000u);
        EXPECT_EQ(e.md.length, 64u);
        EXPECT_EQ(e.ni_fail_type, PTL_NI_OK);
    }
    EXPECT_EQ(tev[0].sequence + 1, tev[1].sequence);
    EXPECT_EQ(tgt.status().messages_in, 1u);
    EXPECT_EQ(tgt.status().messages_out, 1u);
    EXPECT_EQ(ini.status().messages_in, 1u);
}

TEST_F(Pair, AckSuppressedByAckDisable) {
    target_md(contiguous(0x5000, 64, PTL_MD_OP_PUT | PTL_MD_ACK_DISABLE, tgt_eq));
    const ptl_handle_md_t imd = ini.md_bind(contiguous(0x1000, 8, 0, ini_eq), PTL_RETAIN);
    Send put = ini.put(imd, PTL_ACK_REQ, kTarget, kPortal, 0, 0x77, 0, 0, at(1));
    std::optional<Send> ack;
    deliver(tgt, put, at(2), &ack);
    EXPECT_FALSE(ack.has_value());
    ini.send_done(put.op, true, at(3));
    EXPECT_EQ(names(kinds(drain(ini, ini_eq))), "PTL_EVENT_SEND_START PTL_EVENT_SEND_END");
}

TEST_F(Pair, AckSuppressedWithoutAckReq) {
    target_md(contiguous(0x5000, 64, PTL_MD_OP_PUT, tgt_eq));
    const ptl_handle_md_t imd = ini.md_bind(contiguous(0x1000, 8, 0, ini_eq), PTL_RETAIN);
    Send put = ini.put(imd, PTL_NOACK_REQ, kTarget, kPortal, 0, 0x77, 0, 0, at(1));
    EXPECT_EQ(put.hdr.flags & PTL_HDR_ACK_REQ, 0);
    EXPECT_EQ(put.hdr.md_cookie, 0u);
    std::optional<Send> ack;
    deliver(tgt, put, at(2), &ack);
    EXPECT_FALSE(ack.has_value());
}

TEST_F(Pair, NoAckWhenDepositFailed) {
    target_md(contiguous(0x5000, 64, PTL_MD_OP_PUT, tgt_eq));
    const ptl_handle_md_t imd = ini.md_bind(contiguous(0x1000, 8, 0, ini_eq), PTL_RETAIN);
    Send put = ini.put(imd, PTL_ACK_REQ, kTarget, kPortal, 0, 0x77, 0, 0, at(1));
    std::optional<Send> ack;
    deliver(tgt, put, at(2), &ack, /*ok=*/false);
    EXPECT_FALSE(ack.has_value());
    auto tev = drain(tgt, tgt_eq);
    ASSERT_EQ(tev.size(), 2u);
    EXPECT_EQ(tev[1].type, PTL_EVENT_PUT_END);
    EXPECT_EQ(tev[1].ni_fail_type, PTL_NI_FAIL);
}

// §3.10.1: the ack is an operation on the initiator's MD. With threshold 1 the put
// used it up: the MD is unlinked after SEND_END and the ack that follows is stale.
TEST_F(Pair, ThresholdOneUnlinksBeforeTheAck) {
    target_md(contiguous(0x5000, 64, PTL_MD_OP_PUT, tgt_eq));
    const ptl_handle_md_t imd = ini.md_bind(contiguous(0x1000, 8, 0, ini_eq, 1), PTL_UNLINK);
    Send put = ini.put(imd, PTL_ACK_REQ, kTarget, kPortal, 0, 0x77, 0, 0, at(1));
    std::optional<Send> ack;
    deliver(tgt, put, at(2), &ack);
    ini.send_done(put.op, true, at(3));
    EXPECT_FALSE(ini.md_valid(imd));
    ASSERT_TRUE(ack.has_value());
    Receive r = ini.parse(ack->hdr, kTarget.nid, at(4));  // late: must not crash
    EXPECT_EQ(r.action, Receive::Action::discard);
    EXPECT_EQ(ini.status().stale_count, 1u);
    auto iev = drain(ini, ini_eq);
    ASSERT_EQ(names(kinds(iev)), "PTL_EVENT_SEND_START PTL_EVENT_SEND_END PTL_EVENT_UNLINK");
    EXPECT_EQ(iev[1].unlinked, 1);
    EXPECT_EQ(iev[2].md_handle, imd);
}

TEST_F(Pair, ThresholdTwoUnlinksAfterTheAck) {
    target_md(contiguous(0x5000, 64, PTL_MD_OP_PUT, tgt_eq));
    const ptl_handle_md_t imd = ini.md_bind(contiguous(0x1000, 8, 0, ini_eq, 2), PTL_UNLINK);
    Send put = ini.put(imd, PTL_ACK_REQ, kTarget, kPortal, 0, 0x77, 0, 0, at(1));
    std::optional<Send> ack;
    deliver(tgt, put, at(2), &ack);
    ini.send_done(put.op, true, at(3));
    EXPECT_TRUE(ini.md_valid(imd));
    EXPECT_EQ(ini.md_state(imd).threshold, 1);
    ASSERT_TRUE(ack.has_value());
    ini.parse(ack->hdr, kTarget.nid, at(4));
    EXPECT_FALSE(ini.md_valid(imd));
    EXPECT_EQ(names(kinds(drain(ini, ini_eq))),
              "PTL_EVENT_SEND_START PTL_EVENT_SEND_END PTL_EVENT_ACK PTL_EVENT_UNLINK");
}

TEST_F(Pair, LateAckAfterExplicitUnlink) {
    target_md(contiguous(0x5000, 64, PTL_MD_OP_PUT, tgt_eq));
    const ptl_handle_md_t imd = ini.md_bind(contiguous(0x1000, 8, 0, ini_eq), PTL_RETAIN);
    Send put = ini.put(imd, PTL_ACK_REQ, kTarget, kPortal, 0, 0x77, 0, 0, at(1));
    EXPECT_THROW(ini.md_unlink(imd), PortalsError);  // transmit in flight
    ini.send_done(put.op, true, at(2));
    ini.md_unlink(imd);
    std::optional<Send> ack;
    deliver(tgt, put, at(3), &ack);
    ASSERT_TRUE(ack.has_value());
    ini.parse(ack->hdr, kTarget.nid, at(4));
    EXPECT_EQ(ini.status().stale_count, 1u);
    // A new MD in the same slot does not take the old operation's ack either.
    const ptl_handle_md_t again = ini.md_bind(contiguous(0x1000, 8, 0, ini_eq), PTL_RETAIN);
    EXPECT_NE(again, imd);
    ini.parse(ack->hdr, kTarget.nid, at(5));
    EXPECT_EQ(ini.status().stale_count, 2u);
    EXPECT_EQ(names(kinds(drain(ini, ini_eq))), "PTL_EVENT_SEND_START PTL_EVENT_SEND_END");
}

TEST_F(Pair, GetAndReply) {
    const ptl_handle_md_t tmd = target_md(contiguous(0x5000, 64, PTL_MD_OP_GET, tgt_eq));
    const ptl_handle_md_t imd = ini.md_bind(contiguous(0x1000, 16, 0, ini_eq), PTL_RETAIN);

    Send get = ini.get(imd, kTarget, kPortal, 0, 0x77, 8, at(1));
    EXPECT_EQ(get.hdr.type, PTL_MSG_GET);
    EXPECT_EQ(get.hdr.length, 16u);  // the initiator's MD length
    EXPECT_EQ(get.hdr.offset, 8u);
    EXPECT_NE(get.hdr.md_cookie, 0u);
    EXPECT_TRUE(get.payload.empty());
    EXPECT_EQ(get.length, 0u);
    ini.send_done(get.op, true, at(2));
    EXPECT_TRUE(drain(ini, ini_eq).empty());  // no SEND events for a get in 3.3

    Receive r = tgt.parse(get.hdr, kInitiator.nid, at(3));
    EXPECT_EQ(r.action, Receive::Action::discard);
    EXPECT_EQ(r.op, 0u);
    ASSERT_TRUE(r.reply.has_value());
    const Send& reply = *r.reply;
    EXPECT_EQ(reply.hdr.type, PTL_MSG_REPLY);
    EXPECT_EQ(reply.hdr.md_cookie, get.hdr.md_cookie);
    EXPECT_EQ(reply.hdr.length, 16u);
    EXPECT_EQ(reply.hdr.mlength, 16u);
    EXPECT_EQ(reply.hdr.offset, 0u);  // local offset of the target MD (not MANAGE_REMOTE)
    EXPECT_EQ(reply.hdr.dst_pid, kInitiator.pid);
    EXPECT_EQ(reply.dst, kInitiator.nid);
    EXPECT_EQ(reply.payload, (Regions{{0x5000, 16}}));
    EXPECT_EQ(reply.length, 16u);
    EXPECT_EQ(tgt.md_local_offset(tmd), 16u);
    EXPECT_EQ(names(kinds(drain(tgt, tgt_eq))), "PTL_EVENT_GET_START");
    tgt.send_done(reply.op, true, at(4));
    auto tev = drain(tgt, tgt_eq);
    ASSERT_EQ(names(kinds(tev)), "PTL_EVENT_GET_END");
    EXPECT_EQ(tev[0].rlength, 16u);
    EXPECT_EQ(tev[0].mlength, 16u);
    EXPECT_EQ(tev[0].initiator, kInitiator);

    Receive rr = ini.parse(reply.hdr, kTarget.nid, at(5));
    EXPECT_EQ(rr.action, Receive::Action::deposit);
    EXPECT_EQ(rr.regions, (Regions{{0x1000, 16}}));
    EXPECT_EQ(rr.mlength, 16u);
    EXPECT_EQ(rr.entries_examined, 0u);
    EXPECT_EQ(names(kinds(drain(ini, ini_eq))), "PTL_EVENT_REPLY_START");
    EXPECT_FALSE(ini.receive_done(rr.op, true, at(6)).has_value());
    auto iev = drain(ini, ini_eq);
    ASSERT_EQ(names(kinds(iev)), "PTL_EVENT_REPLY_END");
    EXPECT_EQ(iev[0].initiator, kTarget);
    EXPECT_EQ(iev[0].mlength, 16u);
    EXPECT_EQ(iev[0].rlength, 16u);
    EXPECT_EQ(iev[0].offset, 0u);
    EXPECT_EQ(iev[0].match_bits, 0x77u);
    EXPECT_EQ(iev[0].pt_index, kPortal);
    EXPECT_EQ(iev[0].md_handle, imd);

    // The reply was the operation: a second reply with the same cookie is stale.
    ini.parse(reply.hdr, kTarget.nid, at(7));
    EXPECT_EQ(ini.status().stale_count, 1u);
}

TEST_F(Pair, GetTruncatedAtTheTarget) {
    target_md(contiguous(0x5000, 10, PTL_MD_OP_GET | PTL_MD_TRUNCATE, tgt_eq));
    const ptl_handle_md_t imd = ini.md_bind(contiguous(0x1000, 16, 0, ini_eq), PTL_RETAIN);
    Send get = ini.get(imd, kTarget, kPortal, 0, 0x77, 0, at(1));
    Receive r = tgt.parse(get.hdr, kInitiator.nid, at(2));
    ASSERT_TRUE(r.reply.has_value());
    EXPECT_EQ(r.reply->hdr.mlength, 10u);
    EXPECT_EQ(r.reply->payload, (Regions{{0x5000, 10}}));
    Receive rr = ini.parse(r.reply->hdr, kTarget.nid, at(3));
    EXPECT_EQ(rr.regions, (Regions{{0x1000, 10}}));
    ini.receive_done(rr.op, true, at(4));
    auto iev = drain(ini, ini_eq);
    ASSERT_EQ(iev.size(), 2u);
    EXPECT_EQ(iev[1].rlength, 16u);
    EXPECT_EQ(iev[1].mlength, 10u);
}

// The reply lands at the initiator MD's local offset (advanced by earlier incoming puts).
TEST_F(Pair, ReplyAtInitiatorLocalOffset) {
    target_md(contiguous(0x5000, 64, PTL_MD_OP_GET, tgt_eq));
    // The initiator's MD is also a put target: 6 bytes arrive first.
    ptl_handle_me_t me = ini.me_attach(kPortal, kAnyone, 0x1, 0, PTL_RETAIN, PTL_INS_AFTER);
    const ptl_handle_md_t imd = ini.md_attach(me, contiguous(0x1000, 16, PTL_MD_OP_PUT, ini_eq), PTL_RETAIN);
    Library third({3, 9});
    Send p = third.put(third.md_bind(contiguous(0x8000, 6, 0, PTL_EQ_NONE), PTL_RETAIN), PTL_NOACK_REQ, kInitiator,
                       kPortal, 0, 0x1, 0, 0, at(0));
    deliver(ini, p, at(1));
    EXPECT_EQ(ini.md_local_offset(imd), 6u);
    drain(ini, ini_eq);

    Send get = ini.get(imd, kTarget, kPortal, 0, 0x77, 0, at(2));
    EXPECT_EQ(get.hdr.length, 10u);  // the room from the local offset on
    Receive r = tgt.parse(get.hdr, kInitiator.nid, at(3));
    ASSERT_TRUE(r.reply.has_value());
    Receive rr = ini.parse(r.reply->hdr, kTarget.nid, at(4));
    EXPECT_EQ(rr.regions, (Regions{{0x1006, 10}}));
    ini.receive_done(rr.op, true, at(5));
    auto iev = drain(ini, ini_eq);
    ASSERT_EQ(names(kinds(iev)), "PTL_EVENT_REPLY_START PTL_EVENT_REPLY_END");
    EXPECT_EQ(iev[1].offset, 6u);
}

TEST_F(Pair, GetMdThresholdCountsTheReply) {
    target_md(contiguous(0x5000, 64, PTL_MD_OP_GET, tgt_eq));
    const ptl_handle_md_t imd = ini.md_bind(contiguous(0x1000, 8, 0, ini_eq, 1), PTL_UNLINK);
    Send get = ini.get(imd, kTarget, kPortal, 0, 0x77, 0, at(1));
    ini.send_done(get.op, true, at(2));
    EXPECT_EQ(ini.md_state(imd).threshold, 1);  // the request itself is no operation
    Receive r = tgt.parse(get.hdr, kInitiator.nid, at(3));
    Receive rr = ini.parse(r.reply->hdr, kTarget.nid, at(4));
    ini.receive_done(rr.op, true, at(5));
    EXPECT_FALSE(ini.md_valid(imd));
    auto iev = drain(ini, ini_eq);
    ASSERT_EQ(names(kinds(iev)), "PTL_EVENT_REPLY_START PTL_EVENT_REPLY_END PTL_EVENT_UNLINK");
    EXPECT_EQ(iev[1].unlinked, 1);
}

TEST_F(Pair, GetWithNoMatchLeavesInitiatorUnlinkable) {
    const ptl_handle_md_t imd = ini.md_bind(contiguous(0x1000, 8, 0, ini_eq), PTL_RETAIN);
    Send get = ini.get(imd, kTarget, kPortal, 0, 0x99, 0, at(1));
    Receive r = tgt.parse(get.hdr, kInitiator.nid, at(2));
    EXPECT_FALSE(r.reply.has_value());
    EXPECT_EQ(tgt.status().drop_count, 1u);
    EXPECT_THROW(ini.md_unlink(imd), PortalsError);  // request still being sent
    ini.send_done(get.op, true, at(3));
    ini.md_unlink(imd);  // no reply will ever come; the MD is free to go
    EXPECT_FALSE(ini.md_valid(imd));
}

TEST_F(Pair, FailedGetRequestEndsTheReply) {
    const ptl_handle_md_t imd = ini.md_bind(contiguous(0x1000, 8, 0, ini_eq), PTL_RETAIN);
    Send get = ini.get(imd, kTarget, kPortal, 0, 0x77, 0, at(1));
    ini.send_done(get.op, false, at(2));
    auto iev = drain(ini, ini_eq);
    ASSERT_EQ(names(kinds(iev)), "PTL_EVENT_REPLY_END");
    EXPECT_EQ(iev[0].ni_fail_type, PTL_NI_FAIL);
    EXPECT_EQ(iev[0].mlength, 0u);
}

TEST_F(Pair, FailedPutTransmit) {
    const ptl_handle_md_t imd = ini.md_bind(contiguous(0x1000, 8, 0, ini_eq), PTL_RETAIN);
    Send put = ini.put(imd, PTL_NOACK_REQ, kTarget, kPortal, 0, 0x77, 0, 0, at(1));
    ini.send_done(put.op, false, at(2));
    auto iev = drain(ini, ini_eq);
    ASSERT_EQ(names(kinds(iev)), "PTL_EVENT_SEND_START PTL_EVENT_SEND_END");
    EXPECT_EQ(iev[0].ni_fail_type, PTL_NI_OK);
    EXPECT_EQ(iev[1].ni_fail_type, PTL_NI_FAIL);
}

TEST_F(Pair, ZeroBytePut) {
    const ptl_handle_md_t tmd = target_md(contiguous(0x5000, 0, PTL_MD_OP_PUT, tgt_eq));
    const ptl_handle_md_t imd = ini.md_bind(contiguous(0x1000, 0, 0, ini_eq), PTL_RETAIN);
    Send put = ini.put(imd, PTL_ACK_REQ, kTarget, kPortal, 0, 0x77, 0, 0, at(1));
    EXPECT_EQ(put.hdr.length, 0u);
    EXPECT_TRUE(put.payload.empty());
    Receive r = tgt.parse(put.hdr, kInitiator.nid, at(2));
    EXPECT_EQ(r.action, Receive::Action::deposit);  // still reported done, for the events
    EXPECT_TRUE(r.regions.empty());
    EXPECT_EQ(r.mlength, 0u);
    auto ack = tgt.receive_done(r.op, true, at(3));
    ASSERT_TRUE(ack.has_value());
    ini.send_done(put.op, true, at(3));
    ini.parse(ack->hdr, kTarget.nid, at(4));
    EXPECT_EQ(names(kinds(drain(tgt, tgt_eq))), "PTL_EVENT_PUT_START PTL_EVENT_PUT_END");
    EXPECT_EQ(names(kinds(drain(ini, ini_eq))), "PTL_EVENT_SEND_START PTL_EVENT_SEND_END PTL_EVENT_ACK");
    EXPECT_EQ(tgt.md_local_offset(tmd), 0u);
}

TEST_F(Pair, ZeroByteGet) {
    target_md(contiguous(0x5000, 8, PTL_MD_OP_GET, tgt_eq));
    const ptl_handle_md_t imd = ini.md_bind(contiguous(0x1000, 0, 0, ini_eq), PTL_RETAIN);
    Send get = ini.get(imd, kTarget, kPortal, 0, 0x77, 0, at(1));
    Receive r = tgt.parse(get.hdr, kInitiator.nid, at(2));
    ASSERT_TRUE(r.reply.has_value());
    EXPECT_TRUE(r.reply->payload.empty());
    Receive rr = ini.parse(r.reply->hdr, kTarget.nid, at(3));
    EXPECT_EQ(rr.action, Receive::Action::deposit);
    EXPECT_TRUE(rr.regions.empty());
    ini.receive_done(rr.op, true, at(4));
    EXPECT_EQ(names(kinds(drain(ini, ini_eq))), "PTL_EVENT_REPLY_START PTL_EVENT_REPLY_END");
}

// ---- PTL_MD_IOVEC ----

ptl_md_t iovec_md(std::vector<ptl_md_iovec_t> iov, unsigned options, ptl_handle_eq_t eq) {
    ptl_md_t md;
    md.options = options | PTL_MD_IOVEC;
    md.iov = std::move(iov);
    md.eq_handle = eq;
    return md;
}

TEST_F(Pair, IovecPutPayloadIsTheRegionsInOrder) {
    target_md(contiguous(0x5000, 64, PTL_MD_OP_PUT, tgt_eq));
    const ptl_handle_md_t imd =
        ini.md_bind(iovec_md({{0x3000, 5}, {0x1000, 0}, {0x2000, 7}}, 0, ini_eq), PTL_RETAIN);
    EXPECT_EQ(ini.md_state(imd).length, 12u);  // filled in by the library
    Send put = ini.put(imd, PTL_NOACK_REQ, kTarget, kPortal, 0, 0x77, 0, 0, at(1));
    EXPECT_EQ(put.hdr.length, 12u);
    EXPECT_EQ(put.length, 12u);
    EXPECT_EQ(put.payload, (Regions{{0x3000, 5}, {0x2000, 7}}));
}

TEST_F(Pair, IovecDepositSpansBoundariesAtAnOffset) {
    const ptl_handle_md_t tmd = target_md(
        iovec_md({{0xA000, 4}, {0xB000, 4}, {0xC000, 8}}, PTL_MD_OP_PUT | PTL_MD_OP_GET, tgt_eq));
    auto put_bytes = [&](ptl_size_t n) {
        return ini.put(ini.md_bind(contiguous(0x1000, n, 0, PTL_EQ_NONE), PTL_UNLINK), PTL_NOACK_REQ, kTarget,
                       kPortal, 0, 0x77, 0, 0, at(1));
    };
    Receive first = deliver(tgt, put_bytes(3), at(2));
    EXPECT_EQ(first.regions, (Regions{{0xA000, 3}}));
    Receive second = deliver(tgt, put_bytes(6), at(3));
    EXPECT_EQ(second.regions, (Regions{{0xA003, 1}, {0xB000, 4}, {0xC000, 1}}));
    EXPECT_EQ(second.mlength, 6u);
    EXPECT_EQ(tgt.md_local_offset(tmd), 9u);

    // A get from the same MD replies with the next 7 bytes, in the last region.
    const ptl_handle_md_t imd = ini.md_bind(contiguous(0x1000, 7, 0, ini_eq), PTL_RETAIN);
    Receive g = tgt.parse(ini.get(imd, kTarget, kPortal, 0, 0x77, 0, at(4)).hdr, kInitiator.nid, at(5));
    ASSERT_TRUE(g.reply.has_value());
    EXPECT_EQ(g.reply->payload, (Regions{{0xC001, 7}}));
}

TEST_F(Pair, IovecReplyDepositsAcrossRegions) {
    target_md(contiguous(0x5000, 64, PTL_MD_OP_GET, tgt_eq));
    const ptl_handle_md_t imd = ini.md_bind(iovec_md({{0x3000, 2}, {0x4000, 3}}, 0, ini_eq), PTL_RETAIN);
    Receive r = tgt.parse(ini.get(imd, kTarget, kPortal, 0, 0x77, 0, at(1)).hdr, kInitiator.nid, at(2));
    ASSERT_TRUE(r.reply.has_value());
    EXPECT_EQ(r.reply->payload, (Regions{{0x5000, 5}}));
    Receive rr = ini.parse(r.reply->hdr, kTarget.nid, at(3));
    EXPECT_EQ(rr.regions, (Regions{{0x3000, 2}, {0x4000, 3}}));
}

// The same exchange twice gives identical events: nothing depends on addresses or
// unordered containers.
TEST(Determinism, SameRunsSameEvents) {
    auto run = [] {
        Library ini(kInitiator), tgt(kTarget);
        ptl_handle_eq_t ieq = ini.eq_alloc(64), teq = tgt.eq_alloc(64);
        for (int i = 0; i < 4; ++i) {
            ptl_handle_me_t me =
                tgt.me_attach(kPortal, kAnyone, uint64_t(i), 0, PTL_UNLINK, i % 2 ? PTL_INS_BEFORE : PTL_INS_AFTER);
            tgt.md_attach(me, contiguous(0x1000 * uint64_t(i + 1), 32, PTL_MD_OP_PUT, teq, 2), PTL_UNLINK);
        }
        std::vector<std::string> log;
        for (int i = 0; i < 10; ++i) {
            ptl_handle_md_t md = ini.md_bind(contiguous(0x9000, 4 + uint64_t(i), 0, ieq, 2), PTL_UNLINK);
            Send s = ini.put(md, PTL_ACK_REQ, kTarget, kPortal, 0, uint64_t(i % 4), 0, 0, at(i));
            std::optional<Send> ack;
            Receive r = deliver(tgt, s, at(i), &ack);
            ini.send_done(s.op, true, at(i));
            if (ack) ini.parse(ack->hdr, kTarget.nid, at(i));
            log.push_back(std::to_string(r.op) + "/" + std::to_string(r.entries_examined));
        }
        for (auto* q : {&ini, &tgt})
            for (const auto& e : drain(*q, q == &ini ? ieq : teq))
                log.push_back(std::string(ptl_event_str(e.type)) + " " + std::to_string(e.md_handle) + " " +
                              std::to_string(e.offset) + " " + std::to_string(e.sequence));
        return log;
    };
    EXPECT_EQ(run(), run());
}

}  // namespace
}  // namespace niclab::portals::test
