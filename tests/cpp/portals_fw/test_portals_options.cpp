// Every build option of the firmware (seed 000 §5: caches, very small messages,
// write-through, pinned globals, trace points) changes how fast it runs, never what
// it delivers: the same traffic through each image must leave identical bytes, and
// the image must say in niccb.features what it was built with.
#include <gtest/gtest.h>

#include "portals_harness.hpp"

namespace niclab::test {
namespace {

using ptl::Incoming;
using ptl::NodeScript;
using ptl::Placement;

struct ImageCase {
    const char* name;
    uint32_t features;
};

constexpr uint32_t kAll = PTL_FW_FEAT_ICACHE | PTL_FW_FEAT_DCACHE | PTL_FW_FEAT_VSMALL | PTL_FW_FEAT_WRITE_THROUGH |
                          PTL_FW_FEAT_PINNED | PTL_FW_FEAT_GO_BACK_N;

const ImageCase kImages[] = {
    {"portals", kAll},
    {"portals_nocache", kAll & ~(PTL_FW_FEAT_ICACHE | PTL_FW_FEAT_DCACHE)},
    {"portals_icache", kAll & ~PTL_FW_FEAT_DCACHE},
    {"portals_novsmall", kAll & ~PTL_FW_FEAT_VSMALL},
    {"portals_nowt", kAll & ~PTL_FW_FEAT_WRITE_THROUGH},
    {"portals_nopin", kAll & ~PTL_FW_FEAT_PINNED},
    {"portals_traced", kAll | PTL_FW_FEAT_TRACE},
    {"portals_tiny", kAll},
    {"portals_tiny_panic", kAll & ~PTL_FW_FEAT_GO_BACK_N},
};

struct Delivered {
    std::vector<std::vector<uint8_t>> buffers;        // receive buffers incl. guard bytes
    std::vector<std::array<uint8_t, 12>> inline_data; // header-only messages
    uint32_t features = 0;
    Time end{};
};

const std::vector<uint32_t> kLengths = {0, 1, 64, 1500, 70001};

Delivered deliver(const std::string& image) {
    system::System sys(ptl::spec(2, image));
    NodeScript tx, rx;
    for (uint32_t i = 0; i < kLengths.size(); ++i) {
        ptl::put_pattern(sys, 0, 0x100001 + i * 0x20000, kLengths[i], 70 + i);
        sys.host_memory(1).fill(0x900003 + i * 0x20000, 0xEE, kLengths[i] + 16);
        tx.sends.push_back({1, i, 0x100001 + i * 0x20000, kLengths[i], {}, {}});
    }
    // A scattered send and a header-only (inline) one.
    auto scattered = ptl::put_pattern(sys, 0, 0x700001, 3000, 99);
    tx.sends.push_back({1, 100, 0, 0, {{0x700001, 1000}, {0x700001 + 1000, 2000}}, {}});
    sys.host_memory(1).fill(0xA00001, 0xEE, 3016);
    ptl::Outgoing small;
    small.dst = 1;
    small.tag = 200;
    small.inline_data = {9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 42, 43};
    tx.sends.push_back(small);
    rx.expect_rx = uint32_t(tx.sends.size());
    rx.place = [](const Incoming& in) {
        uint32_t tag = in.hdr.match_bits_lo;
        if (tag == 100) return Placement{0, 0, {{0xA00001, 1500}, {0xA00001 + 1500, 1500}}};
        if (tag == 200) return Placement{};  // nothing beyond the header
        return Placement{0x900003 + tag * 0x20000, kLengths.at(tag), {}};
    };
    ptl::run(sys, {{0, &tx}, {1, &rx}});
    EXPECT_TRUE(tx.finished && rx.finished) << image;
    Delivered d;
    for (uint32_t i = 0; i < kLengths.size(); ++i) d.buffers.push_back(ptl::read(sys, 1, 0x900003 + i * 0x20000, kLengths[i] + 16));
    d.buffers.push_back(ptl::read(sys, 1, 0xA00001, 3016));
    for (const Incoming& in : rx.received) {
        EXPECT_LE(in.status, NICLAB_DMA_OK) << image << " message " << in.hdr.match_bits_lo;
        if (in.hdr.match_bits_lo == 200) {
            std::array<uint8_t, 12> a;
            std::memcpy(a.data(), in.hdr.inline_data, 12);
            d.inline_data.push_back(a);
        }
    }
    d.features = ptl::PortalsHost(sys, 1).niccb(ptl::kFeatures);
    d.end = sys.now();
    // The pattern itself, so a wrong-but-identical delivery fails too.
    for (uint32_t i = 0; i < kLengths.size(); ++i)
        EXPECT_TRUE(std::equal(d.buffers[i].begin(), d.buffers[i].begin() + kLengths[i], ptl::pattern(kLengths[i], 70 + i).begin()))
            << image << " message " << i;
    EXPECT_TRUE(std::equal(scattered.begin(), scattered.end(), d.buffers.back().begin())) << image;
    return d;
}

class PortalsImages : public ::testing::TestWithParam<ImageCase> {};

TEST_P(PortalsImages, DeliverTheSameBytesAsTheDefaultImage) {
    static const Delivered reference = deliver("portals");
    Delivered d = deliver(GetParam().name);
    EXPECT_EQ(d.features, GetParam().features);
    ASSERT_EQ(d.buffers.size(), reference.buffers.size());
    for (size_t i = 0; i < d.buffers.size(); ++i) EXPECT_EQ(d.buffers[i], reference.buffers[i]) << "buffer " << i;
    EXPECT_EQ(d.inline_data, reference.inline_data);
    ASSERT_EQ(d.inline_data.size(), 1u);
    EXPECT_EQ(d.inline_data[0][10], 42);
}

INSTANTIATE_TEST_SUITE_P(AllImages, PortalsImages, ::testing::ValuesIn(kImages),
                         [](const ::testing::TestParamInfo<ImageCase>& i) { return std::string(i.param.name); });

TEST(PortalsImagesSpeed, CachesMakeTheSameTrafficFaster) {
    // Not a timing assertion on the host clock: simulated completion times of the
    // same traffic, ordered as seed 000 §5.1 says they must be.
    Time none = deliver("portals_nocache").end, all = deliver("portals").end;
    EXPECT_LT(all, none);
}

}  // namespace
}  // namespace niclab::test
