// Event queues (SAND2006-0420 §3.11): ring order, sequence numbers, overflow reported
// as PTL_EQ_DROPPED, the condition PtlEQWait blocks on, freed queues.
#include "portals_test_support.hpp"

namespace niclab::portals::test {
namespace {

constexpr ptl_process_id_t kAnyone{PTL_NID_ANY, PTL_PID_ANY};

// n puts into the target, each one PUT_START + PUT_END on `eq`.
void puts_into(Library& tgt, ptl_handle_eq_t eq, int n) {
    ptl_handle_me_t me = tgt.me_attach(kPortal, kAnyone, 0, 0, PTL_RETAIN, PTL_INS_AFTER);
    tgt.md_attach(me, contiguous(0x5000, 1 << 20, PTL_MD_OP_PUT, eq), PTL_RETAIN);
    Library ini(kInitiator);
    for (int i = 0; i < n; ++i) {
        Send s = ini.put(ini.md_bind(contiguous(0x1000, 8, 0, PTL_EQ_NONE), PTL_UNLINK), PTL_NOACK_REQ, kTarget,
                         kPortal, 0, 0, 0, uint64_t(i), at(i));
        deliver(tgt, s, at(i));
    }
}

TEST(EventQueue, EmptyQueue) {
    Library lib(kTarget);
    ptl_handle_eq_t eq = lib.eq_alloc(4);
    ptl_event_t ev;
    EXPECT_EQ(lib.eq_get(eq, ev), PTL_EQ_EMPTY);
    EXPECT_EQ(lib.eq_pending(eq), 0u);
}

TEST(EventQueue, SequenceNumbersCountUp) {
    Library tgt(kTarget);
    ptl_handle_eq_t eq = tgt.eq_alloc(16);
    puts_into(tgt, eq, 3);
    EXPECT_EQ(tgt.eq_pending(eq), 6u);
    auto events = drain(tgt, eq);
    ASSERT_EQ(events.size(), 6u);
    for (size_t i = 0; i < events.size(); ++i) {
        EXPECT_EQ(events[i].sequence, i);
        EXPECT_EQ(events[i].type, i % 2 ? PTL_EVENT_PUT_END : PTL_EVENT_PUT_START);
        EXPECT_EQ(events[i].hdr_data, i / 2);
        EXPECT_EQ(events[i].offset, 8 * (i / 2));
    }
}

// §3.11: a full queue overwrites its oldest event; the next PtlEQGet returns
// PTL_EQ_DROPPED with the oldest event still there, later gets PTL_OK.
TEST(EventQueue, OverflowReportsDropped) {
    Library tgt(kTarget);
    ptl_handle_eq_t eq = tgt.eq_alloc(3);
    puts_into(tgt, eq, 4);  // 8 events into 3 slots
    EXPECT_EQ(tgt.eq_pending(eq), 3u);
    ptl_event_t ev;
    ASSERT_EQ(tgt.eq_get(eq, ev), PTL_EQ_DROPPED);
    EXPECT_EQ(ev.sequence, 5u);
    EXPECT_EQ(ev.type, PTL_EVENT_PUT_END);
    ASSERT_EQ(tgt.eq_get(eq, ev), PTL_OK);
    EXPECT_EQ(ev.sequence, 6u);
    ASSERT_EQ(tgt.eq_get(eq, ev), PTL_OK);
    EXPECT_EQ(ev.sequence, 7u);
    EXPECT_EQ(tgt.eq_get(eq, ev), PTL_EQ_EMPTY);
    // After reading up, the queue works normally again.
    puts_into(tgt, eq, 1);
    ASSERT_EQ(tgt.eq_get(eq, ev), PTL_OK);
    EXPECT_EQ(ev.sequence, 8u);
}

// The ring's storage grows with the events unread, up to the queue's size: across every
// growth, with reads between so that the unread events wrap, each event comes out once
// and in order; past the size the oldest are dropped as from a queue allocated whole.
TEST(EventQueue, AQueueGrowingWithItsUnreadEventsKeepsThemInOrder) {
    Library tgt(kTarget);
    ptl_handle_eq_t eq = tgt.eq_alloc(100);
    ptl_event_t ev;
    uint64_t next = 0;
    for (int burst : {3, 5, 9, 20, 30}) {  // 2 events a put, half of them read: 97 unread at most
        puts_into(tgt, eq, burst);
        for (int k = 0; k < burst; ++k) {
            ASSERT_EQ(tgt.eq_get(eq, ev), PTL_OK);
            EXPECT_EQ(ev.sequence, next++);
        }
    }
    EXPECT_EQ(tgt.eq_pending(eq), 67u);
    for (const ptl_event_t& e : drain(tgt, eq)) EXPECT_EQ(e.sequence, next++);
    ASSERT_EQ(next, 134u);
    puts_into(tgt, eq, 60);  // 120 events into 100
    EXPECT_EQ(tgt.eq_pending(eq), 100u);
    ASSERT_EQ(tgt.eq_get(eq, ev), PTL_EQ_DROPPED);
    EXPECT_EQ(ev.sequence, 254u - 100u);
    for (uint64_t k = 155; k < 254; ++k) {
        ASSERT_EQ(tgt.eq_get(eq, ev), PTL_OK);
        EXPECT_EQ(ev.sequence, k);
    }
    EXPECT_EQ(tgt.eq_get(eq, ev), PTL_EQ_EMPTY);
}

TEST(EventQueue, ExactlyFullIsNotDropped) {
    Library tgt(kTarget);
    ptl_handle_eq_t eq = tgt.eq_alloc(4);
    puts_into(tgt, eq, 2);
    ptl_event_t ev;
    for (uint32_t i = 0; i < 4; ++i) {
        ASSERT_EQ(tgt.eq_get(eq, ev), PTL_OK);
        EXPECT_EQ(ev.sequence, i);
    }
}

TEST(EventQueue, SeparateQueuesSeparateSequences) {
    Library tgt(kTarget);
    ptl_handle_eq_t a = tgt.eq_alloc(8), b = tgt.eq_alloc(8);
    puts_into(tgt, a, 1);
    puts_into(tgt, b, 1);  // a new entry at the tail: the first one takes the put
    EXPECT_EQ(tgt.eq_pending(a), 4u);
    EXPECT_EQ(tgt.eq_pending(b), 0u);
    ptl_handle_me_t me = tgt.me_attach(kPortal, kAnyone, 5, 0, PTL_RETAIN, PTL_INS_BEFORE);
    tgt.md_attach(me, contiguous(0x7000, 64, PTL_MD_OP_PUT, b), PTL_RETAIN);
    Library ini(kInitiator);
    deliver(tgt, ini.put(ini.md_bind(contiguous(0x1000, 8, 0, PTL_EQ_NONE), PTL_UNLINK), PTL_NOACK_REQ, kTarget,
                         kPortal, 0, 5, 0, 0, at(9)),
            at(9));
    auto events = drain(tgt, b);
    ASSERT_EQ(events.size(), 2u);
    EXPECT_EQ(events[0].sequence, 0u);
    EXPECT_EQ(events[0].time, at(9));
}

TEST(EventQueue, NoQueueNoEvents) {
    Library tgt(kTarget);
    ptl_handle_me_t me = tgt.me_attach(kPortal, kAnyone, 0, 0, PTL_RETAIN, PTL_INS_AFTER);
    ptl_handle_md_t md = tgt.md_attach(me, contiguous(0x5000, 64, PTL_MD_OP_PUT, PTL_EQ_NONE, 1), PTL_UNLINK);
    Library ini(kInitiator);
    Receive r = deliver(tgt, ini.put(ini.md_bind(contiguous(0x1000, 8, 0, PTL_EQ_NONE), PTL_UNLINK),
                                     PTL_NOACK_REQ, kTarget, kPortal, 0, 0, 0, 0, at(1)),
                        at(1));
    EXPECT_EQ(r.action, Receive::Action::deposit);
    EXPECT_FALSE(tgt.md_valid(md));  // the semantics do not depend on having a queue
}

TEST(EventQueue, FreedQueueIsNoLongerPosted) {
    Library tgt(kTarget);
    ptl_handle_eq_t eq = tgt.eq_alloc(8);
    ptl_handle_me_t me = tgt.me_attach(kPortal, kAnyone, 0, 0, PTL_RETAIN, PTL_INS_AFTER);
    tgt.md_attach(me, contiguous(0x5000, 64, PTL_MD_OP_PUT, eq), PTL_RETAIN);
    tgt.eq_free(eq);
    ptl_handle_eq_t other = tgt.eq_alloc(8);  // reuses the slot, with a new generation
    EXPECT_NE(other, eq);
    Library ini(kInitiator);
    deliver(tgt, ini.put(ini.md_bind(contiguous(0x1000, 8, 0, PTL_EQ_NONE), PTL_UNLINK), PTL_NOACK_REQ, kTarget,
                         kPortal, 0, 0, 0, 0, at(1)),
            at(1));
    EXPECT_EQ(tgt.eq_pending(other), 0u);
}

TEST(EventQueue, ConditionWithoutWaiters) {
    Library tgt(kTarget);
    ptl_handle_eq_t eq = tgt.eq_alloc(8);
    host::Condition& c = tgt.eq_condition(eq);
    EXPECT_EQ(c.waiters(), 0u);
    puts_into(tgt, eq, 1);  // notifies nobody, harmlessly
    EXPECT_EQ(&tgt.eq_condition(eq), &c);
    EXPECT_EQ(tgt.eq_pending(eq), 2u);
}

TEST(EventQueue, EventCarriesTheMdState) {
    Library tgt(kTarget);
    ptl_handle_eq_t eq = tgt.eq_alloc(8);
    ptl_handle_me_t me = tgt.me_attach(kPortal, kAnyone, 0, 0, PTL_RETAIN, PTL_INS_AFTER);
    ptl_md_t md = contiguous(0x5000, 64, PTL_MD_OP_PUT, eq, 5);
    md.user_ptr = 0xFEED;
    tgt.md_attach(me, md, PTL_RETAIN);
    Library ini(kInitiator);
    deliver(tgt, ini.put(ini.md_bind(contiguous(0x1000, 8, 0, PTL_EQ_NONE), PTL_UNLINK), PTL_NOACK_REQ, kTarget,
                         kPortal, 0, 0, 0, 0, at(1)),
            at(1));
    auto events = drain(tgt, eq);
    ASSERT_EQ(events.size(), 2u);
    EXPECT_EQ(events[0].md.threshold, 4);  // after the operation
    EXPECT_EQ(events[0].md.user_ptr, 0xFEEDu);
    EXPECT_EQ(events[0].md.eq_handle, eq);
    EXPECT_EQ(events[0].jid, PTL_JID_NONE);
}

}  // namespace
}  // namespace niclab::portals::test
