// Table-driven matching semantics (matching_table.hpp) against the host library: the
// initiators and the target are Libraries, the test carries the headers between them.
#include <algorithm>
#include <map>
#include <memory>
#include <utility>

#include "matching_table.hpp"

namespace niclab::portals::test {
namespace {

class Matching : public ::testing::TestWithParam<Row> {};

TEST_P(Matching, Row) {
    const Row& row = GetParam();
    Library target(kTarget);
    const ptl_handle_eq_t eq = target.eq_alloc(64);
    std::vector<ptl_handle_me_t> mes;
    std::vector<ptl_handle_md_t> mds;
    for (size_t i = 0; i < row.mes.size(); ++i) {
        const MeRow& m = row.mes[i];
        ptl_handle_me_t h = m.base >= 0 ? target.me_insert(mes.at(size_t(m.base)), m.match_id, m.match_bits,
                                                           m.ignore_bits, m.me_unlink, m.position)
                                        : target.me_attach(kPortal, m.match_id, m.match_bits, m.ignore_bits,
                                                           m.me_unlink, m.position);
        mes.push_back(h);
        ptl_md_t d = contiguous(0x10000 * (i + 1), m.length, m.options, eq, m.threshold);
        d.max_size = m.max_size;
        mds.push_back(m.has_md ? target.md_attach(h, d, m.md_unlink) : PTL_INVALID_HANDLE);
    }
    std::map<std::pair<ptl_nid_t, ptl_pid_t>, std::unique_ptr<Library>> initiators;
    uint64_t drops = 0;
    for (size_t n = 0; n < row.steps.size(); ++n) {
        const Step& st = row.steps[n];
        SCOPED_TRACE("step " + std::to_string(n));
        auto& ini = initiators[{st.from.nid, st.from.pid}];
        if (!ini) ini = std::make_unique<Library>(st.from);
        const ptl_handle_md_t src = ini->md_bind(contiguous(0x900000, st.length, 0, PTL_EQ_NONE), PTL_UNLINK);
        Send msg = st.type == PTL_MSG_PUT
                       ? ini->put(src, PTL_NOACK_REQ, kTarget, st.pt_index, 0, st.bits, st.offset, 0, at(1))
                       : ini->get(src, kTarget, st.pt_index, 0, st.bits, st.offset, at(1));

        Receive r = target.parse(msg.hdr, st.from.nid, at(10 * int64_t(n)));
        EXPECT_EQ(r.entries_examined, st.examined);
        if (st.matched == kDropped) {
            ++drops;
            EXPECT_EQ(r.action, Receive::Action::discard);
            EXPECT_FALSE(r.reply.has_value());
        } else if (st.type == PTL_MSG_PUT) {
            EXPECT_EQ(r.action, Receive::Action::deposit);
            EXPECT_EQ(r.mlength, st.mlength);
            EXPECT_NE(r.op, 0u);
            target.receive_done(r.op, true, at(10 * int64_t(n) + 5));
        } else {
            EXPECT_EQ(r.action, Receive::Action::discard);
            ASSERT_TRUE(r.reply.has_value());
            EXPECT_EQ(r.reply->hdr.mlength, st.mlength);
            target.send_done(r.reply->op, true, at(10 * int64_t(n) + 5));
        }
        EXPECT_EQ(target.status().drop_count, drops);

        expect_step_events(target, eq, st, mds);
        if (st.matched != kDropped && st.type == PTL_MSG_PUT && !r.regions.empty()) {
            EXPECT_EQ(r.regions.front().addr, 0x10000 * uint64_t(st.matched + 1) + st.md_offset);
        }

        expect_list_after(target, st, mes, mds);
    }
}

INSTANTIATE_TEST_SUITE_P(Portals, Matching, ::testing::ValuesIn(kRows),
                         [](const ::testing::TestParamInfo<Row>& info) { return std::string(info.param.name); });

// The unlinked MD of a retained entry: the entry stays, without an MD, and takes a new one.
TEST(MatchingUnlink, RetainedEntryTakesANewMd) {
    Library target(kTarget);
    const ptl_handle_eq_t eq = target.eq_alloc(16);
    const ptl_handle_me_t me = target.me_attach(kPortal, kAnyone, 0, 0, PTL_RETAIN, PTL_INS_AFTER);
    const ptl_handle_md_t first = target.md_attach(me, contiguous(0x1000, 16, PUT, eq, 1), PTL_UNLINK);
    Library ini(kInitiator);
    auto send = [&] {
        return ini.put(ini.md_bind(contiguous(0x9000, 4, 0, PTL_EQ_NONE), PTL_UNLINK), PTL_NOACK_REQ, kTarget,
                       kPortal, 0, 0, 0, 0, at(0));
    };
    deliver(target, send(), at(1));
    EXPECT_FALSE(target.md_valid(first));
    EXPECT_TRUE(target.me_valid(me));
    EXPECT_EQ(names(kinds(drain(target, eq))), names(kPutUnlink));
    EXPECT_EQ(target.parse(send().hdr, kInitiator.nid, at(2)).action, Receive::Action::discard);
    EXPECT_EQ(target.status().drop_count, 1u);
    const ptl_handle_md_t second = target.md_attach(me, contiguous(0x2000, 16, PUT, eq), PTL_UNLINK);
    Receive r = deliver(target, send(), at(3));
    ASSERT_EQ(r.regions.size(), 1u);
    EXPECT_EQ(r.regions[0], (Region{0x2000, 4}));
    EXPECT_TRUE(target.md_valid(second));
}

// An MD left inactive while another operation on it is still in flight is unlinked
// when the last one finishes, and only then (§3.10.1: "no operations pending").
TEST(MatchingUnlink, WaitsForPendingOperations) {
    Library target(kTarget);
    const ptl_handle_eq_t eq = target.eq_alloc(16);
    const ptl_handle_me_t me = target.me_attach(kPortal, kAnyone, 0, 0, PTL_UNLINK, PTL_INS_AFTER);
    const ptl_handle_md_t md = target.md_attach(me, contiguous(0x1000, 16, PUT, eq, 2), PTL_UNLINK);
    Library ini(kInitiator);
    auto send = [&] {
        return ini.put(ini.md_bind(contiguous(0x9000, 4, 0, PTL_EQ_NONE), PTL_UNLINK), PTL_NOACK_REQ, kTarget,
                       kPortal, 0, 0, 0, 0, at(0));
    };
    Receive a = target.parse(send().hdr, kInitiator.nid, at(1));
    Receive b = target.parse(send().hdr, kInitiator.nid, at(2));
    ASSERT_NE(a.op, b.op);
    // Inactive now: a third put passes the entry by.
    EXPECT_EQ(target.parse(send().hdr, kInitiator.nid, at(3)).action, Receive::Action::discard);
    EXPECT_EQ(target.md_state(md).threshold, 0);
    target.receive_done(b.op, true, at(4));
    EXPECT_TRUE(target.md_valid(md));
    target.receive_done(a.op, true, at(5));
    EXPECT_FALSE(target.md_valid(md));
    EXPECT_FALSE(target.me_valid(me));
    auto events = drain(target, eq);
    EXPECT_EQ(names(kinds(events)), "PTL_EVENT_PUT_START PTL_EVENT_PUT_START PTL_EVENT_PUT_END PTL_EVENT_PUT_END "
                                    "PTL_EVENT_UNLINK");
    EXPECT_EQ(events[2].unlinked, 0);
    EXPECT_EQ(events[3].unlinked, 1);
    EXPECT_EQ(events[3].offset, 0u);  // the first put's END comes last
    EXPECT_EQ(events[4].md_handle, md);
}

}  // namespace
}  // namespace niclab::portals::test
