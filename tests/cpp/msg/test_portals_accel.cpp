// Accelerated mode (seed 000 §4.1, §4.3.2; seed 001 §3.3) through the whole stack: on
// each node a generic process (pid 0, the kernel's NAL) and the accelerated process
// (pid 1, its own user-level NAL and firmware mailbox) side by side, on firmware built
// with one (portals_accel). Puts and gets between every pair of modes move every byte;
// the accelerated data path raises no host interrupt and makes no system call; an
// accelerated process refuses a non-contiguous MD; a run is deterministic.
#include "portals_test_support.hpp"

#include <map>

#include "niclab/fw/portals_fw.h"

namespace niclab::test::ptl {
namespace {

constexpr ptl_pt_index_t kPortal = 4;
constexpr ptl_match_bits_t kBits = 0x1234'5678'9abc'def0ull;
constexpr uint64_t kSrc = 0x100003, kDst = 0x2000005;
constexpr ptl_pid_t kGenericPid = 0, kAccelPid = 1;

enum class Mode { generic, accelerated };
const char* name(Mode m) { return m == Mode::generic ? "gen" : "acc"; }
ptl_pid_t pid_of(Mode m) { return m == Mode::generic ? kGenericPid : kAccelPid; }

// Both kinds of process on every node.
struct MixedCluster {
    explicit MixedCluster(const std::string& image = "portals_accel", uint32_t nodes = 2, nlohmann::json topology = nullptr)
        : sys(portals_spec(nodes, std::move(topology), image)) {
        for (size_t i = 0; i < sys.node_count(); ++i) {
            generic.push_back(std::make_unique<Ni>(seastar::portals(sys, i), kGenericPid));
            auto& acc = seastar::accelerated(sys, i, kAccelPid);
            accel.push_back(std::make_unique<Ni>(acc, kAccelPid, acc.limits()));
        }
    }
    ~MixedCluster() {
        procs.clear();
        generic.clear();
        accel.clear();
    }
    Ni& ni(size_t node, Mode m) { return m == Mode::generic ? *generic[node] : *accel[node]; }
    host::Process& spawn(size_t node, Mode m, std::function<void(host::ProcessContext&, Ni&)> body) {
        Ni& n = ni(node, m);
        procs.push_back(std::make_unique<host::Process>(sys.host_cpu(node), std::string(name(m)) + std::to_string(node),
                                                        [&n, body](host::ProcessContext& ctx) { body(ctx, n); }));
        return *procs.back();
    }
    void run() {
        sys.run_until(Time::max());
        for (auto& p : procs) {
            p->rethrow_if_failed();
            EXPECT_TRUE(p->done()) << p->name() << " did not finish";
        }
        for (size_t n = 0; n < sys.node_count(); ++n) EXPECT_FALSE(sys.nic(n).faulted()) << faults();
    }
    std::string faults() {
        std::string s;
        for (size_t n = 0; n < sys.node_count(); ++n)
            if (auto f = sys.nic(n).fault()) s += "node " + std::to_string(n) + ": " + f->what() + "\n";
        return s;
    }
    uint64_t interrupts(size_t node) { return seastar::portals(sys, node).counters().interrupts; }
    uint32_t fw_interrupts(size_t node) { return seastar::portals(sys, node).niccb().host_interrupts; }

    system::System sys;
    std::vector<std::unique_ptr<Ni>> generic, accel;
    std::vector<std::unique_ptr<host::Process>> procs;
};

struct Case {
    Mode from, to;
    uint32_t bytes;
};

std::string case_name(const ::testing::TestParamInfo<Case>& i) {
    return std::string(name(i.param.from)) + "_to_" + name(i.param.to) + "_" + std::to_string(i.param.bytes);
}

class Modes : public ::testing::TestWithParam<Case> {};

TEST_P(Modes, PutMovesEveryByte) {
    const Case k = GetParam();
    const uint32_t n = k.bytes;
    MixedCluster c;
    auto data = pattern(n, n + 7);
    c.sys.host_memory(0).write(kSrc, data);
    c.sys.host_memory(1).fill(kDst, 0xEE, uint64_t(n) + 16);
    ptl_event_t start{}, put_end{}, send_end{};
    c.spawn(1, k.to, [&](host::ProcessContext& ctx, Ni& ni) {
        auto eq = ni.eq_alloc(ctx, 16);
        auto me = ni.me_attach(ctx, kPortal, {0, pid_of(k.from)}, kBits, 0, PTL_UNLINK, PTL_INS_AFTER);
        ni.md_attach(ctx, me, md(kDst, n, PTL_MD_OP_PUT, eq), PTL_UNLINK);
        start = expect_event(ctx, ni, eq, PTL_EVENT_PUT_START);
        put_end = expect_event(ctx, ni, eq, PTL_EVENT_PUT_END);
    });
    c.spawn(0, k.from, [&](host::ProcessContext& ctx, Ni& ni) {
        ctx.sleep_for(Time::us(20));  // the target's match entry is in place by then
        auto eq = ni.eq_alloc(ctx, 16);
        auto h = ni.md_bind(ctx, md(kSrc, n, 0, eq), PTL_UNLINK);
        ni.put(ctx, h, PTL_NOACK_REQ, {1, pid_of(k.to)}, kPortal, 0, kBits, 0, 0xfeedull);
        expect_event(ctx, ni, eq, PTL_EVENT_SEND_START);
        send_end = expect_event(ctx, ni, eq, PTL_EVENT_SEND_END);
    });
    c.run();
    EXPECT_TRUE(bytes_equal(c.sys.host_memory(1), kDst, data)) << n << " bytes differ";
    EXPECT_TRUE(bytes_equal(c.sys.host_memory(1), kDst + n, std::vector<uint8_t>(16, 0xEE))) << "written past the MD";
    EXPECT_EQ(start.rlength, n);
    EXPECT_EQ(put_end.mlength, n);
    EXPECT_EQ(put_end.initiator, (ptl_process_id_t{0, pid_of(k.from)}));
    EXPECT_EQ(put_end.match_bits, kBits);
    EXPECT_EQ(put_end.hdr_data, 0xfeedull);
    EXPECT_EQ(send_end.ni_fail_type, PTL_NI_OK);
}

TEST_P(Modes, GetBringsBackEveryByte) {
    const Case k = GetParam();
    const uint32_t n = k.bytes;
    MixedCluster c;
    auto data = pattern(n, n + 11);
    c.sys.host_memory(1).write(kSrc, data);  // the target's exposed buffer
    c.sys.host_memory(0).fill(kDst, 0xEE, uint64_t(n) + 16);
    ptl_event_t reply_end{}, get_end{};
    c.spawn(1, k.to, [&](host::ProcessContext& ctx, Ni& ni) {
        auto eq = ni.eq_alloc(ctx, 16);
        auto me = ni.me_attach(ctx, kPortal, {0, pid_of(k.from)}, kBits, 0, PTL_UNLINK, PTL_INS_AFTER);
        ni.md_attach(ctx, me, md(kSrc, n, PTL_MD_OP_GET, eq), PTL_UNLINK);
        expect_event(ctx, ni, eq, PTL_EVENT_GET_START);
        get_end = expect_event(ctx, ni, eq, PTL_EVENT_GET_END);
    });
    c.spawn(0, k.from, [&](host::ProcessContext& ctx, Ni& ni) {
        ctx.sleep_for(Time::us(20));
        auto eq = ni.eq_alloc(ctx, 16);
        auto h = ni.md_bind(ctx, md(kDst, n, 0, eq), PTL_UNLINK);
        ni.get(ctx, h, {1, pid_of(k.to)}, kPortal, 0, kBits, 0);
        ptl_event_t ev;
        do ni.eq_wait(ctx, eq, ev);
        while (ev.type != PTL_EVENT_REPLY_END);
        reply_end = ev;
    });
    c.run();
    EXPECT_TRUE(bytes_equal(c.sys.host_memory(0), kDst, data)) << n << " bytes differ";
    EXPECT_TRUE(bytes_equal(c.sys.host_memory(0), kDst + n, std::vector<uint8_t>(16, 0xEE)));
    EXPECT_EQ(reply_end.mlength, n);
    EXPECT_EQ(reply_end.initiator, (ptl_process_id_t{1, pid_of(k.to)}));
    EXPECT_EQ(get_end.mlength, n);
    EXPECT_EQ(get_end.initiator, (ptl_process_id_t{0, pid_of(k.from)}));
}

std::vector<Case> cases() {
    std::vector<Case> out;
    for (Mode from : {Mode::generic, Mode::accelerated})
        for (Mode to : {Mode::generic, Mode::accelerated})
            for (uint32_t n : {0u, 1u, 8u, 12u, 13u, 4099u, 65549u}) out.push_back({from, to, n});
    return out;
}

INSTANTIATE_TEST_SUITE_P(Portals, Modes, ::testing::ValuesIn(cases()), case_name);

// Accelerated to accelerated: puts and gets, then a put with an acknowledgement. The
// firmware matches, deposits, replies and posts every event into the processes' own
// queues: not one host interrupt on either node (counted by the kernel's handler and
// by the firmware) and not one system call (no system time) once set up.
TEST(AcceleratedDataPath, RaisesNoInterruptAndMakesNoSystemCall) {
    MixedCluster c;
    constexpr int kRounds = 20;
    constexpr uint32_t kLen = 4099;
    c.sys.host_memory(0).write(kSrc, pattern(kLen, 1));
    c.sys.host_memory(1).write(kSrc, pattern(kLen, 2));
    uint64_t irq_before[2] = {}, fw_irq_before[2] = {};
    Time sys_before[2] = {};
    host::Process* proc[2] = {};
    int acks = 0;
    proc[1] = &c.spawn(1, Mode::accelerated, [&](host::ProcessContext& ctx, Ni& ni) {
        auto eq = ni.eq_alloc(ctx, 64);
        auto me = ni.me_attach(ctx, kPortal, {0, kAccelPid}, kBits, 0, PTL_RETAIN, PTL_INS_AFTER);
        ni.md_attach(ctx, me, md(kDst, kLen, PTL_MD_OP_PUT | PTL_MD_OP_GET | PTL_MD_MANAGE_REMOTE, eq), PTL_RETAIN);
        auto me_get = ni.me_attach(ctx, kPortal, {0, kAccelPid}, kBits + 1, 0, PTL_RETAIN, PTL_INS_AFTER);
        ni.md_attach(ctx, me_get, md(kSrc, kLen, PTL_MD_OP_GET | PTL_MD_MANAGE_REMOTE, eq), PTL_RETAIN);
        // The kernel driver's start-up interrupt (PTL_CMD_INIT's result) is not the data path.
        while (c.interrupts(1) == 0) ctx.sleep_for(Time::us(1));
        irq_before[1] = c.interrupts(1);
        fw_irq_before[1] = c.fw_interrupts(1);
        sys_before[1] = proc[1]->system_time();
        int puts = 0, gets = 0;
        while (puts < kRounds + 1 || gets < kRounds) {
            ptl_event_t ev = ni.eq_wait(ctx, eq);
            puts += ev.type == PTL_EVENT_PUT_END;
            gets += ev.type == PTL_EVENT_GET_END;
        }
    });
    proc[0] = &c.spawn(0, Mode::accelerated, [&](host::ProcessContext& ctx, Ni& ni) {
        auto eq = ni.eq_alloc(ctx, 64);
        auto src = ni.md_bind(ctx, md(kSrc, kLen, 0, eq), PTL_RETAIN);
        auto dst = ni.md_bind(ctx, md(kDst, kLen, 0, eq), PTL_RETAIN);
        // The kernel driver's start-up interrupt (PTL_CMD_INIT's result) is not the data path.
        while (c.interrupts(0) == 0) ctx.sleep_for(Time::us(1));
        irq_before[0] = c.interrupts(0);
        fw_irq_before[0] = c.fw_interrupts(0);
        sys_before[0] = proc[0]->system_time();
        for (int i = 0; i < kRounds; ++i) {
            ni.put(ctx, src, PTL_NOACK_REQ, {1, kAccelPid}, kPortal, 0, kBits, 0);
            ni.get(ctx, dst, {1, kAccelPid}, kPortal, 0, kBits + 1, 0);
            ptl_event_t ev;
            do ni.eq_wait(ctx, eq, ev);
            while (ev.type != PTL_EVENT_REPLY_END);
        }
        ni.put(ctx, src, PTL_ACK_REQ, {1, kAccelPid}, kPortal, 0, kBits, 0);
        ptl_event_t ev;
        do {
            ni.eq_wait(ctx, eq, ev);
            acks += ev.type == PTL_EVENT_ACK;
        } while (ev.type != PTL_EVENT_ACK);
    });
    c.run();
    EXPECT_TRUE(bytes_equal(c.sys.host_memory(1), kDst, pattern(kLen, 1)));
    EXPECT_TRUE(bytes_equal(c.sys.host_memory(0), kDst, pattern(kLen, 2)));
    EXPECT_EQ(acks, 1);
    for (size_t n = 0; n < 2; ++n) {
        EXPECT_EQ(c.interrupts(n), irq_before[n]) << "node " << n << ": host interrupts on the accelerated data path";
        EXPECT_EQ(c.fw_interrupts(n), fw_irq_before[n]) << "node " << n;
        EXPECT_EQ(proc[n]->system_time(), sys_before[n]) << "node " << n << ": system calls on the data path";
        EXPECT_EQ(seastar::accelerated(c.sys, n, kAccelPid).counters().syscalls, 0u);
    }
    // The target's firmware matched every put and get itself.
    EXPECT_EQ(seastar::portals(c.sys, 1).niccb().accel_matches, uint32_t(2 * kRounds + 1));
    EXPECT_EQ(seastar::portals(c.sys, 1).niccb().accel_drops, 0u);
    EXPECT_GT(seastar::portals(c.sys, 1).niccb().accel_events, 0u);
}

// Generic and accelerated processes of one node send at once: their messages share
// the single TX pending list and the one source pool, and all arrive.
TEST(SideBySide, GenericAndAcceleratedShareTheNode) {
    MixedCluster c;
    constexpr int kEach = 40;
    constexpr uint32_t kLen = 1000;
    c.sys.host_memory(0).write(kSrc, pattern(kLen, 5));
    int got[2] = {};
    for (Mode to : {Mode::generic, Mode::accelerated}) {
        c.spawn(1, to, [&, to](host::ProcessContext& ctx, Ni& ni) {
            auto eq = ni.eq_alloc(ctx, 256);
            auto me = ni.me_attach(ctx, kPortal, {PTL_NID_ANY, PTL_PID_ANY}, kBits, 0, PTL_RETAIN, PTL_INS_AFTER);
            const uint64_t at = kDst + (to == Mode::generic ? 0 : 0x100000);
            ni.md_attach(ctx, me, md(at, kLen, PTL_MD_OP_PUT | PTL_MD_MANAGE_REMOTE, eq), PTL_RETAIN);
            int& n = got[to == Mode::generic ? 0 : 1];
            while (n < 2 * kEach) n += ni.eq_wait(ctx, eq).type == PTL_EVENT_PUT_END;
        });
    }
    for (Mode from : {Mode::generic, Mode::accelerated}) {
        c.spawn(0, from, [&](host::ProcessContext& ctx, Ni& ni) {
            ctx.sleep_for(Time::us(30));
            auto eq = ni.eq_alloc(ctx, 512);
            auto src = ni.md_bind(ctx, md(kSrc, kLen, 0, eq), PTL_RETAIN);
            for (int i = 0; i < kEach; ++i)
                for (ptl_pid_t to : {kGenericPid, kAccelPid}) ni.put(ctx, src, PTL_NOACK_REQ, {1, to}, kPortal, 0, kBits, 0);
            int done = 0;
            while (done < 2 * kEach) done += ni.eq_wait(ctx, eq).type == PTL_EVENT_SEND_END;
        });
    }
    c.run();
    EXPECT_EQ(got[0], 2 * kEach);
    EXPECT_EQ(got[1], 2 * kEach);
    EXPECT_TRUE(bytes_equal(c.sys.host_memory(1), kDst, pattern(kLen, 5)));
    EXPECT_TRUE(bytes_equal(c.sys.host_memory(1), kDst + 0x100000, pattern(kLen, 5)));
}

// Seed 001 §3.3: "accelerated mode will not support non-contiguous message buffers".
TEST(ContiguousBuffers, AcceleratedProcessRefusesAnIovecMd) {
    MixedCluster c;
    bool refused_attach = false, refused_bind = false, generic_took_it = false;
    std::string what;
    ptl_md_t iov = md(0, 0, PTL_MD_OP_PUT | PTL_MD_IOVEC, PTL_EQ_NONE);
    iov.iov = {{0x10000, 100}, {0x30000, 200}};
    c.spawn(1, Mode::accelerated, [&](host::ProcessContext& ctx, Ni& ni) {
        auto me = ni.me_attach(ctx, kPortal, {PTL_NID_ANY, PTL_PID_ANY}, 0, 0, PTL_RETAIN, PTL_INS_AFTER);
        try {
            ni.md_attach(ctx, me, iov, PTL_RETAIN);
        } catch (const PortalsError& e) {
            refused_attach = e.code() == PTL_MD_ILLEGAL;
            what = e.what();
        }
        try {
            ni.md_bind(ctx, iov, PTL_RETAIN);
        } catch (const PortalsError& e) {
            refused_bind = e.code() == PTL_MD_ILLEGAL;
        }
        // The entry is still free for a contiguous one.
        ni.md_attach(ctx, me, md(0x10000, 100, PTL_MD_OP_PUT, PTL_EQ_NONE), PTL_RETAIN);
    });
    c.spawn(1, Mode::generic, [&](host::ProcessContext& ctx, Ni& ni) {
        ni.md_bind(ctx, iov, PTL_RETAIN);
        generic_took_it = true;
    });
    c.run();
    EXPECT_TRUE(refused_attach);
    EXPECT_TRUE(refused_bind);
    EXPECT_TRUE(generic_took_it);
    EXPECT_NE(what.find("md_attach"), std::string::npos) << what;
    EXPECT_NE(what.find("non-contiguous"), std::string::npos) << what;
    EXPECT_NE(what.find("0x10000"), std::string::npos) << what;
}

// Seed 000 §4.3.3's exhaustion, aimed at the accelerated process: eight nodes put
// bursts at it on firmware with tiny pools (4 sources, 8 RX pendings:
// portals_accel_tiny). The firmware drops what it cannot take and go-back-N has it
// sent again: every put arrives exactly once and in order from each sender, matched in
// the firmware, and still no interrupt on the target.
TEST(AcceleratedExhaustion, IncastIsCarriedByGoBackN) {
    constexpr uint32_t kSenders = 8, kEach = 6, kLen = 2000;
    const uint32_t nodes = kSenders + 1;
    MixedCluster c("portals_accel_tiny", nodes, {{"kind", "mesh"}, {"dims", {nodes, 1, 1}}});
    std::map<uint32_t, std::vector<uint64_t>> seen;  // hdr_data of each PUT_END, by sender
    c.spawn(0, Mode::accelerated, [&](host::ProcessContext& ctx, Ni& ni) {
        auto eq = ni.eq_alloc(ctx, 1024);
        auto me = ni.me_attach(ctx, kPortal, {PTL_NID_ANY, PTL_PID_ANY}, 0, 0, PTL_RETAIN, PTL_INS_AFTER);
        ni.md_attach(ctx, me, md(kDst, 1 << 20, PTL_MD_OP_PUT | PTL_MD_MANAGE_REMOTE, eq), PTL_RETAIN);
        for (uint32_t got = 0; got < kSenders * kEach;) {
            ptl_event_t ev = ni.eq_wait(ctx, eq);
            if (ev.type == PTL_EVENT_PUT_END) ++got, seen[ev.initiator.nid].push_back(ev.hdr_data);
        }
    });
    for (uint32_t s = 1; s <= kSenders; ++s) {
        c.sys.host_memory(s).write(kSrc, pattern(kLen, s));
        c.spawn(s, Mode::generic, [&, s](host::ProcessContext& ctx, Ni& ni) {
            ctx.sleep_for(Time::us(30));
            auto h = ni.md_bind(ctx, md(kSrc, kLen, 0, PTL_EQ_NONE), PTL_RETAIN);
            // Each sender's puts land in its own slot: the last one's bytes are checked.
            for (uint64_t m = 0; m < kEach; ++m)
                ni.put(ctx, h, PTL_NOACK_REQ, {0, kAccelPid}, kPortal, 0, 0, s * 0x1000, m);
        });
    }
    c.run();
    for (uint32_t s = 1; s <= kSenders; ++s) {
        std::vector<uint64_t> want(kEach);
        for (uint64_t m = 0; m < kEach; ++m) want[m] = m;
        EXPECT_EQ(seen[s], want) << "puts from node " << s << ": each once, in order";
        EXPECT_TRUE(bytes_equal(c.sys.host_memory(0), kDst + s * 0x1000, pattern(kLen, s))) << "node " << s;
    }
    const ptl_niccb& cb = seastar::portals(c.sys, 0).niccb();
    EXPECT_GT(cb.rx_drops, 0u) << "the pools did run out";
    EXPECT_GT(cb.nacks_sent, 0u);
    EXPECT_EQ(cb.accel_matches, kSenders * kEach) << "every put matched once, in the firmware";
    // The one interrupt is the kernel driver's start-up (PTL_CMD_INIT's result).
    EXPECT_EQ(c.fw_interrupts(0), 1u) << "host interrupts at the accelerated target";
    EXPECT_EQ(c.interrupts(0), 1u);
}

// The two copies of the match list stay one (accel_nal.hpp). Ni::md_unlink polls the EQ
// as it enters the library, so the firmware can only have matched the MD unseen in the
// flight time of the unlink command, a few hundred nanoseconds. These tests open that
// window wide: they sleep (not entering the library) until the firmware's own counter
// shows the match, then unlink as Ni::md_unlink does after its entry poll.
void until_firmware_matched(host::ProcessContext& ctx, MixedCluster& c, size_t node, uint32_t matches) {
    while (seastar::portals(c.sys, node).niccb().accel_matches < matches) ctx.sleep_for(Time::ns(100));
}

void md_unlink_unseen(host::ProcessContext& ctx, Ni& ni, ptl_handle_md_t h) {
    ni.library().check_md_unlink(h);
    ni.nal().md_unlink(ctx, h);
    ni.library().md_unlink(h);
}

// The firmware is still depositing a put the library has not seen: the unlink is
// refused with PTL_MD_IN_USE (before, the firmware panicked), and goes through once
// the put has ended.
TEST(AcceleratedUnlink, RefusedWhileTheFirmwareDepositsIntoIt) {
    MixedCluster c;
    constexpr uint32_t kLen = 64 * 1024;
    c.sys.host_memory(0).write(kSrc, pattern(kLen, 3));
    ptl_err_t first = PTL_OK;
    bool second_ok = false;
    c.spawn(1, Mode::accelerated, [&](host::ProcessContext& ctx, Ni& ni) {
        auto eq = ni.eq_alloc(ctx, 64);
        auto me = ni.me_attach(ctx, kPortal, {PTL_NID_ANY, PTL_PID_ANY}, kBits, 0, PTL_RETAIN, PTL_INS_AFTER);
        auto h = ni.md_attach(ctx, me, md(kDst, kLen, PTL_MD_OP_PUT, eq), PTL_RETAIN);
        until_firmware_matched(ctx, c, 1, 1);
        try {
            md_unlink_unseen(ctx, ni, h);
        } catch (const PortalsError& e) {
            first = e.code();
        }
        expect_event(ctx, ni, eq, PTL_EVENT_PUT_START);  // replayed during the unlink's round trip
        expect_event(ctx, ni, eq, PTL_EVENT_PUT_END);
        ni.md_unlink(ctx, h);
        second_ok = !ni.library().md_valid(h) && ni.library().me_valid(me);
    });
    c.spawn(0, Mode::generic, [&](host::ProcessContext& ctx, Ni& ni) {
        ctx.sleep_for(Time::us(30));
        auto src = ni.md_bind(ctx, md(kSrc, kLen, 0, PTL_EQ_NONE), PTL_RETAIN);
        ni.put(ctx, src, PTL_NOACK_REQ, {1, kAccelPid}, kPortal, 0, kBits, 0);
    });
    c.run();
    EXPECT_EQ(first, PTL_MD_IN_USE);
    EXPECT_TRUE(second_ok);
    EXPECT_EQ(seastar::accelerated(c.sys, 1, kAccelPid).counters().unlinks_refused, 1u);
    EXPECT_TRUE(bytes_equal(c.sys.host_memory(1), kDst, pattern(kLen, 3)));
}

// The firmware's match used the MD's last operation and unlinked it (and its
// PTL_UNLINK entry): the library learns it during the round trip, posts the UNLINK
// event, and the explicit unlink finds the handle gone, as generic mode would had the
// event come first. Both tables then take a new entry in the freed slots.
TEST(AcceleratedUnlink, FindsTheFirmwareUnlinkedItFirst) {
    MixedCluster c;
    c.sys.host_memory(0).write(kSrc, pattern(8, 4));
    ptl_err_t md_err = PTL_OK, me_err = PTL_OK;
    std::vector<ptl_event_kind_t> seen;
    c.spawn(1, Mode::accelerated, [&](host::ProcessContext& ctx, Ni& ni) {
        auto eq = ni.eq_alloc(ctx, 64);
        auto me = ni.me_attach(ctx, kPortal, {PTL_NID_ANY, PTL_PID_ANY}, kBits, 0, PTL_UNLINK, PTL_INS_AFTER);
        auto h = ni.md_attach(ctx, me, md(kDst, 8, PTL_MD_OP_PUT, eq, 1), PTL_UNLINK);
        until_firmware_matched(ctx, c, 1, 1);
        try {
            md_unlink_unseen(ctx, ni, h);
        } catch (const PortalsError& e) {
            md_err = e.code();
        }
        try {
            ni.me_unlink(ctx, me);
        } catch (const PortalsError& e) {
            me_err = e.code();
        }
        ptl_event_t ev;
        while (ni.eq_get(ctx, eq, ev) == PTL_OK) seen.push_back(ev.type);
        auto me2 = ni.me_attach(ctx, kPortal, {PTL_NID_ANY, PTL_PID_ANY}, kBits, 0, PTL_RETAIN, PTL_INS_AFTER);
        ni.md_attach(ctx, me2, md(kDst + 0x1000, 8, PTL_MD_OP_PUT, eq), PTL_RETAIN);
        expect_event(ctx, ni, eq, PTL_EVENT_PUT_START);
        expect_event(ctx, ni, eq, PTL_EVENT_PUT_END);
    });
    c.spawn(0, Mode::generic, [&](host::ProcessContext& ctx, Ni& ni) {
        ctx.sleep_for(Time::us(30));
        auto src = ni.md_bind(ctx, md(kSrc, 8, 0, PTL_EQ_NONE), PTL_RETAIN);
        ni.put(ctx, src, PTL_NOACK_REQ, {1, kAccelPid}, kPortal, 0, kBits, 0);
        ctx.sleep_for(Time::us(30));
        ni.put(ctx, src, PTL_NOACK_REQ, {1, kAccelPid}, kPortal, 0, kBits, 0);
    });
    c.run();
    EXPECT_EQ(md_err, PTL_MD_INVALID);
    EXPECT_EQ(me_err, PTL_ME_INVALID);
    EXPECT_EQ(seen, (std::vector<ptl_event_kind_t>{PTL_EVENT_PUT_START, PTL_EVENT_PUT_END, PTL_EVENT_UNLINK}));
    EXPECT_TRUE(bytes_equal(c.sys.host_memory(1), kDst, pattern(8, 4)));
    EXPECT_TRUE(bytes_equal(c.sys.host_memory(1), kDst + 0x1000, pattern(8, 4)));
}

// §3.10.1: a put sent from an attached MD is one of its operations. With threshold 2,
// after the process's own put only one incoming put may match; the firmware, told by
// PTL_CMD_MD_COUNT, drops the second instead of depositing it.
TEST(AcceleratedThreshold, ThePutsAProcessSendsCountInTheFirmware) {
    MixedCluster c;
    constexpr uint32_t kLen = 256;
    c.sys.host_memory(0).write(kSrc, pattern(kLen, 6));
    c.sys.host_memory(1).write(kDst, pattern(kLen, 7));
    int put_ends = 0;
    uint64_t drops = 0;
    c.spawn(1, Mode::accelerated, [&](host::ProcessContext& ctx, Ni& ni) {
        auto eq = ni.eq_alloc(ctx, 64);
        auto me = ni.me_attach(ctx, kPortal, {PTL_NID_ANY, PTL_PID_ANY}, kBits, 0, PTL_RETAIN, PTL_INS_AFTER);
        auto h = ni.md_attach(ctx, me, md(kDst, kLen, PTL_MD_OP_PUT | PTL_MD_MANAGE_REMOTE, eq, 2), PTL_RETAIN);
        ni.put(ctx, h, PTL_NOACK_REQ, {0, kGenericPid}, kPortal, 0, kBits, 0);  // its own: threshold 2 -> 1
        while (put_ends == 0) put_ends += ni.eq_wait(ctx, eq).type == PTL_EVENT_PUT_END;
        ctx.sleep_for(Time::us(40));  // the second put arrives meanwhile
        ptl_event_t ev;
        while (ni.eq_get(ctx, eq, ev) == PTL_OK) put_ends += ev.type == PTL_EVENT_PUT_END;
        drops = ni.library().status().drop_count;
    });
    c.spawn(0, Mode::generic, [&](host::ProcessContext& ctx, Ni& ni) {
        auto eq = ni.eq_alloc(ctx, 64);
        auto me = ni.me_attach(ctx, kPortal, {PTL_NID_ANY, PTL_PID_ANY}, kBits, 0, PTL_RETAIN, PTL_INS_AFTER);
        ni.md_attach(ctx, me, md(kDst, kLen, PTL_MD_OP_PUT, eq), PTL_RETAIN);
        ctx.sleep_for(Time::us(30));
        auto src = ni.md_bind(ctx, md(kSrc, kLen, 0, PTL_EQ_NONE), PTL_RETAIN);
        for (int i = 0; i < 2; ++i) ni.put(ctx, src, PTL_NOACK_REQ, {1, kAccelPid}, kPortal, 0, kBits, 0);
    });
    c.run();
    EXPECT_EQ(put_ends, 1);
    EXPECT_EQ(drops, 1u);
    const ptl_niccb& cb = seastar::portals(c.sys, 1).niccb();
    EXPECT_EQ(cb.accel_matches, 1u);
    EXPECT_EQ(cb.accel_drops, 1u);
    EXPECT_TRUE(bytes_equal(c.sys.host_memory(1), kDst, pattern(kLen, 6)));
}

// Drops hold no pending: a process that does not enter its library while hundreds of
// puts miss its match list must not have its EQ overrun. The firmware leaves at most
// PTL_ACCEL_DROP_EVENTS drop events unread and carries the rest in the next one: the
// library counts every drop, and a matching put behind them arrives intact.
TEST(AcceleratedDrops, ManyDropsDoNotOverrunTheEventQueue) {
    constexpr uint32_t kDrops = 200, kLen = 100;
    MixedCluster c("portals_accel_tiny");
    c.sys.host_memory(0).write(kSrc, pattern(kLen, 8));
    bool sent = false;
    uint64_t drops = 0;
    c.spawn(1, Mode::accelerated, [&](host::ProcessContext& ctx, Ni& ni) {
        auto eq = ni.eq_alloc(ctx, 64);
        auto me = ni.me_attach(ctx, kPortal, {PTL_NID_ANY, PTL_PID_ANY}, kBits, 0, PTL_RETAIN, PTL_INS_AFTER);
        ni.md_attach(ctx, me, md(kDst, kLen, PTL_MD_OP_PUT, eq), PTL_RETAIN);
        while (!sent) ctx.sleep_for(Time::us(5));  // not entering the library
        expect_event(ctx, ni, eq, PTL_EVENT_PUT_START);
        expect_event(ctx, ni, eq, PTL_EVENT_PUT_END);
        ctx.sleep_for(Time::us(20));
        ptl_event_t ev;
        EXPECT_EQ(ni.eq_get(ctx, eq, ev), PTL_EQ_EMPTY);  // takes the drop event sent after PTL_CMD_DROPS_SEEN
        drops = ni.library().status().drop_count;
    });
    c.spawn(0, Mode::generic, [&](host::ProcessContext& ctx, Ni& ni) {
        ctx.sleep_for(Time::us(30));
        auto eq = ni.eq_alloc(ctx, 1024);
        auto src = ni.md_bind(ctx, md(kSrc, kLen, 0, eq), PTL_RETAIN);
        for (uint32_t i = 0; i < kDrops; ++i) ni.put(ctx, src, PTL_NOACK_REQ, {1, kAccelPid}, kPortal, 0, ~kBits, 0);
        ni.put(ctx, src, PTL_NOACK_REQ, {1, kAccelPid}, kPortal, 0, kBits, 0);
        for (uint32_t done = 0; done < kDrops + 1;) done += ni.eq_wait(ctx, eq).type == PTL_EVENT_SEND_END;
        ctx.sleep_for(Time::us(20));
        sent = true;
    });
    c.run();
    EXPECT_EQ(drops, kDrops);
    EXPECT_EQ(seastar::accelerated(c.sys, 1, kAccelPid).counters().dropped, kDrops);
    EXPECT_EQ(seastar::portals(c.sys, 1).niccb().accel_drops, kDrops);
    EXPECT_TRUE(bytes_equal(c.sys.host_memory(1), kDst, pattern(kLen, 8)));
}

// The same spec and seed give the same run: event times and counters.
std::vector<int64_t> one_run() {
    MixedCluster c;
    c.sys.host_memory(0).write(kSrc, pattern(5000, 9));
    std::vector<int64_t> trace;
    c.spawn(1, Mode::accelerated, [&](host::ProcessContext& ctx, Ni& ni) {
        auto eq = ni.eq_alloc(ctx, 64);
        auto me = ni.me_attach(ctx, kPortal, {PTL_NID_ANY, PTL_PID_ANY}, kBits, 0, PTL_RETAIN, PTL_INS_AFTER);
        ni.md_attach(ctx, me, md(kDst, 5000, PTL_MD_OP_PUT | PTL_MD_TRUNCATE, eq), PTL_RETAIN);
        for (int i = 0; i < 6; ++i) {
            ptl_event_t ev = ni.eq_wait(ctx, eq);
            trace.push_back(ev.time.ps());
            trace.push_back(int64_t(ev.offset));
        }
    });
    c.spawn(0, Mode::generic, [&](host::ProcessContext& ctx, Ni& ni) {
        ctx.sleep_for(Time::us(30));
        auto src = ni.md_bind(ctx, md(kSrc, 1700, 0, PTL_EQ_NONE), PTL_RETAIN);
        for (int i = 0; i < 3; ++i) ni.put(ctx, src, PTL_NOACK_REQ, {1, kAccelPid}, kPortal, 0, kBits, 0);
    });
    c.run();
    trace.push_back(c.sys.now().ps());
    trace.push_back(seastar::accelerated(c.sys, 1, kAccelPid).counters().events);
    return trace;
}

TEST(AcceleratedDeterminism, SameSpecSameRun) {
    auto a = one_run();
    EXPECT_EQ(a.size(), 14u);
    EXPECT_EQ(a, one_run());
}

}  // namespace
}  // namespace niclab::test::ptl
