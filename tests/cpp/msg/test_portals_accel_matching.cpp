// The matching table (tests/cpp/portals/matching_table.hpp), run against the firmware's
// matching of an accelerated process (firmware/portals/accel_match.c): the target is
// the accelerated process (nid 2, pid 7) of a ten-node SeaStar on portals_accel, its
// match entries and MDs mirrored into NIC SRAM; each step is a real put or get from a
// generic process on the initiator's node with the initiator's pid. The firmware
// decides; the host library replays the decision. Checked for every step: what the
// firmware examined and chose (its counters, the bytes it deposited), the library's
// events and state, and the firmware's own match list read back from SRAM.
#include <algorithm>
#include <deque>
#include <functional>
#include <map>

#include "../portals/matching_table.hpp"
#include "portals_test_support.hpp"

namespace niclab::test::ptl {
namespace {

namespace tbl = niclab::portals::test;

// The firmware's struct accel_me (accel.h): where `next` is, and its size.
constexpr uint32_t kMeNext = 24, kMeBytes = 36;

class FirmwareTarget {
public:
    FirmwareTarget() : sys_(portals_spec(10, nullptr, "portals_accel")) {
        auto& acc = seastar::accelerated(sys_, kTargetNode, tbl::kTarget.pid);
        nal_ = &acc;
        target_ = std::make_unique<Ni>(acc, tbl::kTarget.pid, acc.limits());
        Ni* ni = target_.get();
        // The target process: runs what the test hands it, polls its queue otherwise.
        procs_.push_back(std::make_unique<host::Process>(sys_.host_cpu(kTargetNode), "target", [this, ni](host::ProcessContext& ctx) {
            while (!stop_) {
                if (!jobs_.empty()) {
                    auto job = std::move(jobs_.front());
                    jobs_.pop_front();
                    job(ctx, *ni);
                } else {
                    acc_poll(ctx);
                    ctx.sleep_for(Time::us(2));
                }
            }
        }));
        settle();
    }
    ~FirmwareTarget() {
        stop_ = true;
        sys_.run_until(sys_.now() + Time::us(10));
        procs_.clear();
        initiators_.clear();
        target_.reset();
    }

    Library& library() { return target_->library(); }
    void on_target(std::function<void(host::ProcessContext&, Ni&)> job) {
        jobs_.push_back(std::move(job));
        settle();
    }
    uint32_t examined() { return seastar::portals(sys_, kTargetNode).niccb().accel_examined; }
    host::HostMemory& memory(size_t node) { return sys_.host_memory(node); }
    const seastar::AccelNal::Decision& decision() const { return nal_->last_match(); }
    uint64_t matched() const { return nal_->counters().matched; }
    std::string faults() {
        std::string s;
        for (size_t n = 0; n < sys_.node_count(); ++n)
            if (auto f = sys_.nic(n).fault()) s += "node " + std::to_string(n) + ": " + f->what() + "\n";
        return s;
    }

    // A put or get of `st` from its initiator, carried out to the end.
    void send(const tbl::Step& st, uint64_t src_addr) {
        auto& ini = initiators_[{st.from.nid, st.from.pid}];
        if (!ini) ini = std::make_unique<Ni>(seastar::portals(sys_, st.from.nid), st.from.pid);
        Ni* n = ini.get();
        procs_.push_back(std::make_unique<host::Process>(sys_.host_cpu(st.from.nid), "initiator", [n, st, src_addr](host::ProcessContext& ctx) {
            auto h = n->md_bind(ctx, ptl_md(src_addr, st.length, 0, PTL_EQ_NONE), PTL_UNLINK);
            if (st.type == PTL_MSG_PUT)
                n->put(ctx, h, PTL_NOACK_REQ, tbl::kTarget, st.pt_index, 0, st.bits, st.offset, 0);
            else
                n->get(ctx, h, tbl::kTarget, st.pt_index, 0, st.bits, st.offset);
        }));
        settle();
        for (auto& p : procs_) p->rethrow_if_failed();
    }

    // The firmware's match list of `pt`, as entry indices, read from SRAM.
    std::vector<uint32_t> firmware_list(ptl_pt_index_t pt) {
        const auto* image = sys_.nic(kTargetNode).image();
        uint32_t heads = 0, mes = 0;
        EXPECT_TRUE(image->find_symbol("accel_portals", heads) && image->find_symbol("accel_mes", mes));
        std::vector<uint32_t> out;
        auto u16 = [&](uint32_t a) { return sys_.nic(kTargetNode).peek32(a & ~3u) >> (8 * (a & 2)) & 0xFFFFu; };
        for (uint32_t ref = u16(heads + 2 * pt); ref && out.size() < 64; ref = u16(mes + (ref - 1) * kMeBytes + kMeNext))
            out.push_back(ref - 1);
        return out;
    }

private:
    static constexpr size_t kTargetNode = 2;
    void acc_poll(host::ProcessContext& ctx) { nal_->poll(ctx); }
    // Long enough for any step: its message, the deposit or reply, the events.
    void settle() { sys_.run_until(sys_.now() + Time::us(300)); }

    system::System sys_;
    seastar::AccelNal* nal_ = nullptr;
    std::unique_ptr<Ni> target_;
    std::map<std::pair<ptl_nid_t, ptl_pid_t>, std::unique_ptr<Ni>> initiators_;
    std::vector<std::unique_ptr<host::Process>> procs_;
    std::deque<std::function<void(host::ProcessContext&, Ni&)>> jobs_;
    bool stop_ = false;
};

class FirmwareMatching : public ::testing::TestWithParam<tbl::Row> {};

TEST_P(FirmwareMatching, Row) {
    const tbl::Row& row = GetParam();
    FirmwareTarget t;
    ptl_handle_eq_t eq = PTL_EQ_NONE;
    std::vector<ptl_handle_me_t> mes;
    std::vector<ptl_handle_md_t> mds;
    t.on_target([&](host::ProcessContext& ctx, Ni& ni) {
        eq = ni.eq_alloc(ctx, 64);
        for (size_t i = 0; i < row.mes.size(); ++i) {
            const tbl::MeRow& m = row.mes[i];
            ptl_handle_me_t h = m.base >= 0 ? ni.me_insert(ctx, mes.at(size_t(m.base)), m.match_id, m.match_bits,
                                                           m.ignore_bits, m.me_unlink, m.position)
                                            : ni.me_attach(ctx, tbl::kPortal, m.match_id, m.match_bits, m.ignore_bits,
                                                           m.me_unlink, m.position);
            mes.push_back(h);
            ptl_md_t d = ptl_md(0x10000 * (i + 1), m.length, m.options, eq, m.threshold);
            d.max_size = m.max_size;
            mds.push_back(m.has_md ? ni.md_attach(ctx, h, d, m.md_unlink) : PTL_INVALID_HANDLE);
        }
    });
    ASSERT_EQ(mes.size(), row.mes.size()) << t.faults();
    uint64_t drops = 0;
    for (size_t n = 0; n < row.steps.size(); ++n) {
        const tbl::Step& st = row.steps[n];
        SCOPED_TRACE("step " + std::to_string(n));
        const uint64_t src_addr = 0x900000;
        const auto data = pattern(uint32_t(st.length), uint32_t(100 + n));
        t.memory(st.from.nid).write(src_addr, data);
        const uint32_t examined_before = t.examined();
        const uint64_t matched_before = t.matched();
        t.send(st, src_addr);
        ASSERT_EQ(t.faults(), "");
        EXPECT_EQ(t.examined() - examined_before, st.examined) << "entries the firmware examined";
        if (st.matched == tbl::kDropped) {
            ++drops;
            EXPECT_EQ(t.matched(), matched_before) << "the firmware matched a message the table drops";
        } else {
            ASSERT_EQ(t.matched(), matched_before + 1) << "the firmware dropped a message the table matches";
            EXPECT_EQ(t.decision().md, mds.at(size_t(st.matched)));
            EXPECT_EQ(t.decision().offset, st.md_offset);
            EXPECT_EQ(t.decision().mlength, st.mlength);
            if (st.type == PTL_MSG_PUT && st.mlength) {
                // The firmware put the bytes where it said.
                std::vector<uint8_t> want(data.begin(), data.begin() + long(st.mlength));
                EXPECT_TRUE(bytes_equal(t.memory(2), 0x10000 * uint64_t(st.matched + 1) + st.md_offset, want));
            }
        }
        EXPECT_EQ(t.library().status().drop_count, drops);

        tbl::expect_step_events(t.library(), eq, st, mds);
        std::vector<uint32_t> expect_indices;
        for (ptl_handle_me_t h : tbl::expect_list_after(t.library(), st, mes, mds)) expect_indices.push_back(h & 0xFFFFu);
        EXPECT_EQ(t.firmware_list(tbl::kPortal), expect_indices) << "the firmware's own match list";
    }
}

INSTANTIATE_TEST_SUITE_P(Accelerated, FirmwareMatching, ::testing::ValuesIn(tbl::kRows),
                         [](const ::testing::TestParamInfo<tbl::Row>& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace niclab::test::ptl
