// Error codes of the library API (SAND2006-0420 §3.17 names), thrown as PortalsError
// whose what() is "<PTL name>: <detail naming the handle or index>"; stale handles;
// limits; op ids and completions the library does not know.
#include <functional>

#include "portals_test_support.hpp"

namespace niclab::portals::test {
namespace {

constexpr ptl_process_id_t kAnyone{PTL_NID_ANY, PTL_PID_ANY};

// Runs `f`, which must throw PortalsError `code` whose message starts with the code's
// name and contains every one of `mentions`.
void expect_error(ptl_err_t code, const std::function<void()>& f, std::vector<std::string> mentions = {}) {
    try {
        f();
        ADD_FAILURE() << "no exception, expected " << ptl_err_str(code);
    } catch (const PortalsError& e) {
        EXPECT_EQ(e.code(), code) << e.what();
        const std::string what = e.what();
        EXPECT_EQ(what.rfind(std::string(ptl_err_str(code)) + ": ", 0), 0u) << what;
        for (const auto& m : mentions) EXPECT_NE(what.find(m), std::string::npos) << what << " lacks " << m;
    }
}

std::string hex(uint32_t h) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08x", h);
    return buf;
}

TEST(Names, ErrorsAndEvents) {
    EXPECT_STREQ(ptl_err_str(PTL_MD_INVALID), "PTL_MD_INVALID");
    EXPECT_STREQ(ptl_err_str(PTL_EQ_DROPPED), "PTL_EQ_DROPPED");
    EXPECT_STREQ(ptl_err_str(PTL_PT_INDEX_INVALID), "PTL_PT_INDEX_INVALID");
    EXPECT_STREQ(ptl_err_str(PTL_FAIL), "PTL_FAIL");
    EXPECT_STREQ(ptl_event_str(PTL_EVENT_PUT_END), "PTL_EVENT_PUT_END");
    EXPECT_STREQ(ptl_event_str(PTL_EVENT_UNLINK), "PTL_EVENT_UNLINK");
    EXPECT_STREQ(ptl_event_str(PTL_EVENT_REPLY_START), "PTL_EVENT_REPLY_START");
    EXPECT_STREQ(PortalsError(PTL_MD_IN_USE, "md 7").what(), "PTL_MD_IN_USE: md 7");
    // A PortalsError is a niclab Error.
    EXPECT_THROW(throw PortalsError(PTL_FAIL, "x"), Error);
}

TEST(Handles, StaleMdAfterUnlinkAndReuse) {
    Library lib(kTarget);
    ptl_handle_md_t old = lib.md_bind(contiguous(0x1000, 8, 0, PTL_EQ_NONE), PTL_RETAIN);
    EXPECT_TRUE(lib.md_valid(old));
    lib.md_unlink(old);
    EXPECT_FALSE(lib.md_valid(old));
    ptl_handle_md_t fresh = lib.md_bind(contiguous(0x2000, 8, 0, PTL_EQ_NONE), PTL_RETAIN);
    EXPECT_NE(fresh, old);
    EXPECT_EQ(fresh & 0xFFFF, old & 0xFFFF);  // same slot, new generation
    EXPECT_FALSE(lib.md_valid(old));
    expect_error(PTL_MD_INVALID, [&] { lib.md_state(old); }, {"md_state", hex(old)});
    expect_error(PTL_MD_INVALID, [&] { lib.md_unlink(old); }, {"md_unlink", hex(old)});
    expect_error(PTL_MD_INVALID, [&] { lib.md_local_offset(old); }, {hex(old)});
    expect_error(PTL_MD_INVALID, [&] { lib.put(old, PTL_NOACK_REQ, kInitiator, 0, 0, 0, 0, 0, at(0)); },
                 {"put", hex(old)});
    expect_error(PTL_MD_INVALID, [&] { lib.get(old, kInitiator, 0, 0, 0, 0, at(0)); }, {"get", hex(old)});
    expect_error(PTL_MD_INVALID, [&] { lib.md_state(PTL_INVALID_HANDLE); }, {"0xffffffff"});
    EXPECT_EQ(lib.md_state(fresh).start, 0x2000u);
}

TEST(Handles, StaleMeAndEq) {
    Library lib(kTarget);
    ptl_handle_me_t me = lib.me_attach(1, kAnyone, 0, 0, PTL_RETAIN, PTL_INS_AFTER);
    lib.me_unlink(me);
    EXPECT_FALSE(lib.me_valid(me));
    EXPECT_TRUE(lib.match_list(1).empty());
    expect_error(PTL_ME_INVALID, [&] { lib.me_unlink(me); }, {"me_unlink", hex(me)});
    expect_error(PTL_ME_INVALID, [&] { lib.md_attach(me, contiguous(0, 8, PTL_MD_OP_PUT, PTL_EQ_NONE), PTL_RETAIN); },
                 {"md_attach", hex(me)});
    expect_error(PTL_ME_INVALID, [&] { lib.me_insert(me, kAnyone, 0, 0, PTL_RETAIN, PTL_INS_AFTER); },
                 {"me_insert", hex(me)});

    ptl_handle_eq_t eq = lib.eq_alloc(4);
    lib.eq_free(eq);
    ptl_event_t ev;
    expect_error(PTL_EQ_INVALID, [&] { lib.eq_get(eq, ev); }, {"eq_get", hex(eq)});
    expect_error(PTL_EQ_INVALID, [&] { lib.eq_pending(eq); }, {"eq_pending"});
    expect_error(PTL_EQ_INVALID, [&] { lib.eq_condition(eq); }, {"eq_condition"});
    expect_error(PTL_EQ_INVALID, [&] { lib.eq_free(eq); }, {"eq_free"});
    expect_error(PTL_EQ_INVALID, [&] { lib.md_bind(contiguous(0, 8, 0, eq), PTL_RETAIN); }, {"md_bind", hex(eq)});
}

TEST(Handles, UnlinkingAnEntryUnlinksItsMd) {
    Library lib(kTarget);
    ptl_handle_me_t me = lib.me_attach(1, kAnyone, 0, 0, PTL_RETAIN, PTL_INS_AFTER);
    ptl_handle_md_t md = lib.md_attach(me, contiguous(0, 8, PTL_MD_OP_PUT, PTL_EQ_NONE), PTL_RETAIN);
    lib.me_unlink(me);
    EXPECT_FALSE(lib.md_valid(md));
}

TEST(Handles, UnlinkingTheMdOfAnUnlinkEntryUnlinksTheEntry) {
    Library lib(kTarget);
    ptl_handle_me_t keep = lib.me_attach(1, kAnyone, 0, 0, PTL_RETAIN, PTL_INS_AFTER);
    ptl_handle_me_t go = lib.me_attach(1, kAnyone, 0, 0, PTL_UNLINK, PTL_INS_AFTER);
    ptl_handle_md_t a = lib.md_attach(keep, contiguous(0, 8, PTL_MD_OP_PUT, PTL_EQ_NONE), PTL_RETAIN);
    ptl_handle_md_t b = lib.md_attach(go, contiguous(0, 8, PTL_MD_OP_PUT, PTL_EQ_NONE), PTL_RETAIN);
    lib.md_unlink(a);
    lib.md_unlink(b);
    EXPECT_TRUE(lib.me_valid(keep));
    EXPECT_FALSE(lib.me_valid(go));
    EXPECT_EQ(lib.match_list(1), std::vector<ptl_handle_me_t>{keep});
}

TEST(Errors, PortalIndex) {
    Library lib(kTarget, 0, Limits{8, 16, 16, 4});
    expect_error(PTL_PT_INDEX_INVALID, [&] { lib.me_attach(8, kAnyone, 0, 0, PTL_RETAIN, PTL_INS_AFTER); },
                 {"me_attach", "pt_index 8", "8 entries"});
    expect_error(PTL_PT_INDEX_INVALID, [&] { lib.match_list(99); }, {"pt_index 99"});
    EXPECT_NO_THROW(lib.me_attach(7, kAnyone, 0, 0, PTL_RETAIN, PTL_INS_AFTER));
}

TEST(Errors, Limits) {
    Library lib(kTarget, 0, Limits{8, 2, 2, 1});
    ptl_handle_eq_t eq = lib.eq_alloc(4);
    expect_error(PTL_NO_SPACE, [&] { lib.eq_alloc(4); }, {"eq_alloc", "max_eqs"});
    lib.eq_free(eq);
    EXPECT_NO_THROW(lib.eq_alloc(4));  // the freed one can be had again
    expect_error(PTL_NO_SPACE, [&] { lib.eq_alloc(0); }, {"eq_alloc"});

    ptl_handle_me_t me = lib.me_attach(0, kAnyone, 0, 0, PTL_RETAIN, PTL_INS_AFTER);
    lib.me_insert(me, kAnyone, 0, 0, PTL_RETAIN, PTL_INS_AFTER);
    expect_error(PTL_NO_SPACE, [&] { lib.me_attach(0, kAnyone, 0, 0, PTL_RETAIN, PTL_INS_AFTER); }, {"max_mes"});
    expect_error(PTL_NO_SPACE, [&] { lib.me_insert(me, kAnyone, 0, 0, PTL_RETAIN, PTL_INS_AFTER); }, {"max_mes"});

    lib.md_bind(contiguous(0, 8, 0, PTL_EQ_NONE), PTL_RETAIN);
    lib.md_attach(me, contiguous(0, 8, PTL_MD_OP_PUT, PTL_EQ_NONE), PTL_RETAIN);
    expect_error(PTL_NO_SPACE, [&] { lib.md_bind(contiguous(0, 8, 0, PTL_EQ_NONE), PTL_RETAIN); }, {"max_mds"});

    expect_error(PTL_NO_SPACE, [] { Library big(kTarget, 0, Limits{64, 70000, 16, 4}); }, {"max_mes", "70000"});
}

TEST(Errors, MeAlreadyHasAnMd) {
    Library lib(kTarget);
    ptl_handle_me_t me = lib.me_attach(0, kAnyone, 0, 0, PTL_RETAIN, PTL_INS_AFTER);
    ptl_handle_md_t md = lib.md_attach(me, contiguous(0, 8, PTL_MD_OP_PUT, PTL_EQ_NONE), PTL_RETAIN);
    expect_error(PTL_ME_IN_USE,
                 [&] { lib.md_attach(me, contiguous(0, 8, PTL_MD_OP_PUT, PTL_EQ_NONE), PTL_RETAIN); },
                 {"md_attach", hex(me), hex(md)});
}

TEST(Errors, InUseWhileOperationsAreInFlight) {
    Library tgt(kTarget), ini(kInitiator);
    ptl_handle_me_t me = tgt.me_attach(kPortal, kAnyone, 0, 0, PTL_RETAIN, PTL_INS_AFTER);
    ptl_handle_md_t md = tgt.md_attach(me, contiguous(0x5000, 64, PTL_MD_OP_PUT, PTL_EQ_NONE), PTL_RETAIN);
    Send put = ini.put(ini.md_bind(contiguous(0x1000, 8, 0, PTL_EQ_NONE), PTL_RETAIN), PTL_NOACK_REQ, kTarget,
                       kPortal, 0, 0, 0, 0, at(1));
    Receive r = tgt.parse(put.hdr, kInitiator.nid, at(2));
    expect_error(PTL_MD_IN_USE, [&] { tgt.md_unlink(md); }, {"md_unlink", hex(md), "1 operations in flight"});
    expect_error(PTL_ME_IN_USE, [&] { tgt.me_unlink(me); }, {"me_unlink", hex(me)});
    tgt.receive_done(r.op, true, at(3));
    tgt.md_unlink(md);
    tgt.me_unlink(me);
}

TEST(Errors, IllegalMds) {
    Library lib(kTarget);
    ptl_md_t md = contiguous(0, 8, 0x8000, PTL_EQ_NONE);
    expect_error(PTL_MD_ILLEGAL, [&] { lib.md_bind(md, PTL_RETAIN); }, {"option bits 0x8000"});
    md = contiguous(0, 8, 0, PTL_EQ_NONE, -2);
    expect_error(PTL_MD_ILLEGAL, [&] { lib.md_bind(md, PTL_RETAIN); }, {"threshold -2"});
    md = contiguous(0, 8, 0, PTL_EQ_NONE);
    md.iov = {{0x100, 4}};
    expect_error(PTL_MD_ILLEGAL, [&] { lib.md_bind(md, PTL_RETAIN); }, {"PTL_MD_IOVEC"});
    md = contiguous(0, 1ull << 33, 0, PTL_EQ_NONE);
    expect_error(PTL_MD_ILLEGAL, [&] { lib.md_bind(md, PTL_RETAIN); }, {"32-bit"});
    EXPECT_EQ(lib.status().messages_out, 0u);
}

TEST(Errors, InactiveMdCannotInitiate) {
    Library lib(kInitiator);
    ptl_handle_md_t md = lib.md_bind(contiguous(0x1000, 8, 0, PTL_EQ_NONE, 1), PTL_RETAIN);
    Send s = lib.put(md, PTL_NOACK_REQ, kTarget, kPortal, 0, 0, 0, 0, at(1));
    lib.send_done(s.op, true, at(2));
    EXPECT_TRUE(lib.md_valid(md));  // retained, threshold 0
    expect_error(PTL_MD_INVALID, [&] { lib.put(md, PTL_NOACK_REQ, kTarget, kPortal, 0, 0, 0, 0, at(3)); },
                 {"inactive", "threshold 0"});
    expect_error(PTL_MD_INVALID, [&] { lib.get(md, kTarget, kPortal, 0, 0, 0, at(3)); }, {"inactive"});
    expect_error(PTL_PROCESS_INVALID, [&] {
        ptl_handle_md_t other = lib.md_bind(contiguous(0x1000, 8, 0, PTL_EQ_NONE), PTL_RETAIN);
        lib.put(other, PTL_NOACK_REQ, {2, 0x10000}, kPortal, 0, 0, 0, 0, at(3));
    }, {"pid 65536"});
}

TEST(Errors, UnknownOperationsAreCountedAndIgnored) {
    Library lib(kTarget);
    lib.send_done(12345, true, at(1));
    EXPECT_FALSE(lib.receive_done(999, true, at(1)).has_value());
    EXPECT_EQ(lib.status().unknown_ops, 2u);
    // A completion of the wrong kind for a known op is no better.
    Library ini(kInitiator);
    Send s = ini.put(ini.md_bind(contiguous(0x1000, 8, 0, PTL_EQ_NONE), PTL_RETAIN), PTL_NOACK_REQ, kTarget,
                     kPortal, 0, 0, 0, 0, at(1));
    EXPECT_FALSE(ini.receive_done(s.op, true, at(2)).has_value());
    EXPECT_EQ(ini.status().unknown_ops, 1u);
    ini.send_done(s.op, true, at(2));
    ini.send_done(s.op, true, at(3));  // twice
    EXPECT_EQ(ini.status().unknown_ops, 2u);
}

TEST(Errors, UnknownCookiesAndTypes) {
    Library lib(kInitiator);
    ptl_hdr h{};
    h.type = PTL_MSG_REPLY;
    h.md_cookie = 77;
    EXPECT_EQ(lib.parse(h, 2, at(1)).action, Receive::Action::discard);
    h.type = PTL_MSG_ACK;
    EXPECT_EQ(lib.parse(h, 2, at(1)).action, Receive::Action::discard);
    h.md_cookie = 0;
    lib.parse(h, 2, at(1));
    EXPECT_EQ(lib.status().stale_count, 3u);
    h.type = 99;
    lib.parse(h, 2, at(1));
    EXPECT_EQ(lib.status().drop_count, 1u);
    EXPECT_EQ(lib.status().messages_in, 4u);
}

// An ack's cookie must not complete a get (nor a reply's a put).
TEST(Errors, CookieOfTheWrongKind) {
    Library ini(kInitiator), tgt(kTarget);
    ptl_handle_eq_t eq = ini.eq_alloc(8);
    ptl_handle_md_t md = ini.md_bind(contiguous(0x1000, 8, 0, eq), PTL_RETAIN);
    Send get = ini.get(md, kTarget, kPortal, 0, 0, 0, at(1));
    ptl_hdr fake{};
    fake.type = PTL_MSG_ACK;
    fake.md_cookie = get.hdr.md_cookie;
    ini.parse(fake, kTarget.nid, at(2));
    EXPECT_EQ(ini.status().stale_count, 1u);
    EXPECT_TRUE(drain(ini, eq).empty());
}

}  // namespace
}  // namespace niclab::portals::test
