// Packet captures: the pcapng writer's blocks and options, read back by a small reader
// that checks the draft's rules (total lengths at both ends, 32-bit padding); the
// capture's taps, frames, timestamps and directions; and its typed errors.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <unistd.h>
#include <string>
#include <vector>

#include "niclab/net/capture.hpp"
#include "niclab/net/network.hpp"
#include "net_test_nic.hpp"

namespace niclab::net {
namespace {

using testing::make_frame;
using testing::make_nics;

uint32_t le32(const std::vector<uint8_t>& b, std::size_t at) {
    return uint32_t(b[at]) | uint32_t(b[at + 1]) << 8 | uint32_t(b[at + 2]) << 16 | uint32_t(b[at + 3]) << 24;
}
uint16_t le16(const std::vector<uint8_t>& b, std::size_t at) { return uint16_t(b[at] | b[at + 1] << 8); }

struct Block {
    uint32_t type = 0;
    std::vector<uint8_t> body;  // between the two total lengths
    std::map<uint16_t, std::vector<uint8_t>> options;
    std::string option(uint16_t code) const {
        auto it = options.find(code);
        return it == options.end() ? "" : std::string(it->second.begin(), it->second.end());
    }
};

// Reads every block, checking each block's framing and its options' padding.
std::vector<Block> read_pcapng(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::vector<uint8_t> b((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<Block> blocks;
    std::size_t at = 0;
    while (at < b.size()) {
        Block blk;
        blk.type = le32(b, at);
        const uint32_t total = le32(b, at + 4);
        EXPECT_EQ(total % 4, 0u) << "block at " << at;
        EXPECT_GE(total, 12u);
        EXPECT_LE(at + total, b.size());
        EXPECT_EQ(le32(b, at + total - 4), total) << "trailing total length of the block at " << at;
        blk.body.assign(b.begin() + std::ptrdiff_t(at + 8), b.begin() + std::ptrdiff_t(at + total - 4));
        // Where the options start: after the fixed part of each block type.
        std::size_t opt = 0;
        if (blk.type == PcapngWriter::kSectionHeaderBlock) opt = 16;
        else if (blk.type == PcapngWriter::kInterfaceDescriptionBlock) opt = 8;
        else if (blk.type == PcapngWriter::kEnhancedPacketBlock) opt = 20 + PcapngWriter::pad4(le32(blk.body, 12));
        while (opt + 4 <= blk.body.size()) {
            const uint16_t code = le16(blk.body, opt), len = le16(blk.body, opt + 2);
            if (code == 0) {
                EXPECT_EQ(len, 0);
                EXPECT_EQ(opt + 4, blk.body.size()) << "opt_endofopt ends the block";
                break;
            }
            blk.options[code].assign(blk.body.begin() + std::ptrdiff_t(opt + 4),
                                     blk.body.begin() + std::ptrdiff_t(opt + 4 + len));
            opt += 4 + PcapngWriter::pad4(len);
        }
        blocks.push_back(std::move(blk));
        at += total;
    }
    return blocks;
}

std::string temp_path(const std::string& name) {
    return (std::filesystem::temp_directory_path() / ("niclab_test_" + std::to_string(::getpid()) + "_" + name)).string();
}

TEST(PcapngWriter, WritesSectionInterfaceAndPacketBlocksWithOptions) {
    const std::string path = temp_path("writer.pcapng");
    {
        PcapngWriter w(path, "hw", "niclab test", "a comment of 21 bytes");
        EXPECT_EQ(w.add_interface(PcapngWriter::kLinkTypeUser0, 4133, "node 3", "its cables"), 0u);
        EXPECT_EQ(w.add_interface(PcapngWriter::kLinkTypeUser0, 4133, "link 12", ""), 1u);
        const uint8_t a[3] = {1, 2, 3}, b[2] = {4, 5};
        w.write_packet(1, 0x1'0000'0002ull, {std::span<const uint8_t>(a), std::span<const uint8_t>(b)},
                       PcapngWriter::kFlagOutbound, "retried");
        w.write_packet(0, 7, {std::span<const uint8_t>(a)}, 0);
        EXPECT_EQ(w.packets(), 2u);
        w.close();
    }
    const auto blocks = read_pcapng(path);
    ASSERT_EQ(blocks.size(), 5u);
    const Block& shb = blocks[0];
    EXPECT_EQ(shb.type, 0x0A0D0D0Au);
    EXPECT_EQ(le32(shb.body, 0), 0x1A2B3C4Du);  // byte-order magic
    EXPECT_EQ(le16(shb.body, 4), 1);          // version 1.0
    EXPECT_EQ(le16(shb.body, 6), 0);
    EXPECT_EQ(le32(shb.body, 8), 0xFFFFFFFFu);  // section length unknown
    EXPECT_EQ(shb.option(PcapngWriter::kOptComment), "a comment of 21 bytes");
    EXPECT_EQ(shb.option(PcapngWriter::kShbHardware), "hw");
    EXPECT_EQ(shb.option(PcapngWriter::kShbUserAppl), "niclab test");

    const Block& idb = blocks[1];
    EXPECT_EQ(idb.type, 1u);
    EXPECT_EQ(le16(idb.body, 0), 147);  // LINKTYPE_USER0
    EXPECT_EQ(le32(idb.body, 4), 4133u);
    EXPECT_EQ(idb.option(PcapngWriter::kIfName), "node 3");
    EXPECT_EQ(idb.option(PcapngWriter::kIfDescription), "its cables");
    EXPECT_EQ(idb.option(PcapngWriter::kIfTsresol), std::string(1, '\x09'));  // nanoseconds
    EXPECT_EQ(blocks[2].options.count(PcapngWriter::kIfDescription), 0u);  // empty: left out

    const Block& epb = blocks[3];
    EXPECT_EQ(epb.type, 6u);
    EXPECT_EQ(le32(epb.body, 0), 1u);           // interface id
    EXPECT_EQ(le32(epb.body, 4), 1u);           // timestamp, high word
    EXPECT_EQ(le32(epb.body, 8), 2u);           // low word
    EXPECT_EQ(le32(epb.body, 12), 5u);          // captured length
    EXPECT_EQ(le32(epb.body, 16), 5u);          // original length
    EXPECT_EQ(std::vector<uint8_t>(epb.body.begin() + 20, epb.body.begin() + 28),
              (std::vector<uint8_t>{1, 2, 3, 4, 5, 0, 0, 0}));  // the parts, padded to 32 bits
    EXPECT_EQ(le32(epb.options.at(PcapngWriter::kEpbFlags), 0), PcapngWriter::kFlagOutbound);
    EXPECT_EQ(epb.option(PcapngWriter::kOptComment), "retried");
    EXPECT_TRUE(blocks[4].options.empty());  // no flags, no comment: no options at all
    EXPECT_EQ(blocks[4].body.size(), 20u + 4u);
    std::filesystem::remove(path);
}

TEST(PcapngWriter, UnwritablePathIsACaptureErrorNamingIt) {
    const std::string path = "/nonexistent-dir/x.pcapng";
    try {
        PcapngWriter w(path, "", "", "");
        FAIL() << "no error";
    } catch (const CaptureError& e) {
        EXPECT_EQ(e.path(), path);
        EXPECT_NE(std::string(e.what()).find(path), std::string::npos);
    }
}

// Two nodes on a direct cable; node 0 sends a 5-byte and a 64-byte packet to node 1.
struct DirectPair {
    sim::Kernel k;
    Network net{k, DirectCable{}};
    std::vector<std::unique_ptr<testing::TestNic>> nics = make_nics(net);
};

CaptureSpec spec_of(const std::string& path, std::vector<CaptureSpec::NodeTap> nodes, std::vector<LinkId> links = {}) {
    CaptureSpec s;
    s.path = path;
    s.nodes = std::move(nodes);
    s.links = std::move(links);
    s.format = PayloadFormat::seastar;
    s.comment = "test";
    return s;
}

TEST(Capture, NodeTapRecordsBothDirectionsWithSimulatedTimes) {
    const std::string path = temp_path("node.pcapng");
    DirectPair p;
    Capture cap(p.net, spec_of(path, {{"node 0", {0}}, {"node 1", {1}}}, {p.net.injection_link(0)}));
    EXPECT_EQ(cap.interfaces(), (std::vector<std::string>{"node 0", "node 1", "link 0"}));
    p.k.run_until(Time::ns(1500));
    p.nics[0]->send(make_frame<64>(0, 1, 7, 5));
    p.k.run_until(Time::us(10));
    std::vector<testing::Delivery> log = p.nics[1]->log;
    ASSERT_EQ(log.size(), 1u);
    cap.close();
    EXPECT_EQ(p.net.tap(), nullptr);  // closing detaches

    const auto blocks = read_pcapng(path);
    ASSERT_EQ(blocks.size(), 1u + 3u + 3u);  // SHB, 3 IDBs, node 0 out + link 0 + node 1 in
    EXPECT_EQ(blocks[1].option(PcapngWriter::kIfName), "node 0");
    EXPECT_EQ(blocks[1].option(PcapngWriter::kIfDescription),
              "sends on link 0 (node 0 -> node 1), receives on link 1 (node 1 -> node 0)");
    EXPECT_EQ(blocks[3].option(PcapngWriter::kIfName), "link 0");
    EXPECT_EQ(blocks[3].option(PcapngWriter::kIfDescription), "node 0 -> node 1");
    auto ts = [](const Block& b) { return uint64_t(le32(b.body, 4)) << 32 | le32(b.body, 8); };
    auto flags = [](const Block& b) { return le32(b.options.at(PcapngWriter::kEpbFlags), 0); };
    const Block &out = blocks[4], &on_link = blocks[5], &in = blocks[6];
    EXPECT_EQ(le32(out.body, 0), 0u);
    EXPECT_EQ(flags(out), PcapngWriter::kFlagOutbound);
    EXPECT_EQ(ts(out), 1500u);  // the first byte leaves when the packet is injected
    EXPECT_EQ(le32(on_link.body, 0), 2u);
    EXPECT_EQ(ts(on_link), 1500u);
    EXPECT_EQ(on_link.options.count(PcapngWriter::kEpbFlags), 0u);  // a link has no direction
    EXPECT_EQ(le32(in.body, 0), 1u);
    EXPECT_EQ(flags(in), PcapngWriter::kFlagInbound);
    EXPECT_EQ(ts(in), uint64_t(log[0].at.ps() / 1000));  // the last byte is in the NIC
    EXPECT_EQ(ts(in), 1500u + uint64_t((p.net.link(0).serialization(5) + p.net.link(0).latency()).ps() / 1000));

    // The frame: capture header, PacketHeader as header_bytes(), payload.
    const auto sent = make_frame<64>(0, 1, 7, 5);
    PacketHeader h = sent;
    h.link_crc = compute_link_crc(PacketView(sent));
    const auto expect = Capture::frame_header(h, PayloadFormat::seastar, 0, 0, 0);
    ASSERT_EQ(le32(out.body, 12), Capture::kFrameHeaderBytes + 5);
    EXPECT_EQ(std::vector<uint8_t>(out.body.begin() + 20, out.body.begin() + 20 + 37),
              std::vector<uint8_t>(expect.begin(), expect.end()));
    EXPECT_EQ(out.body[20 + 37], sent.payload[0]);
    EXPECT_EQ(out.body[20 + 41], sent.payload[4]);
    std::filesystem::remove(path);
}

TEST(Capture, FrameHeaderLayoutIsVersionOne) {
    // traces/CAPTURE.md documents these offsets; the dissector reads them.
    PacketHeader h;
    h.src = 0x01020304;
    h.dst = 5;
    h.message_id = 0xA0B0C0D0;
    h.sequence = 0x1234;
    h.head = true;
    h.tail = true;
    h.vnet = 1;
    h.route_bytes = 0;
    h.length = 0x0102;
    h.message_bytes = 99;
    h.message_crc = 0xDEADBEEF;
    h.link_crc = 0xBEEF;
    const auto f = Capture::frame_header(h, PayloadFormat::dsnic, 3, Capture::kFrameCorrupted, 300);
    ASSERT_EQ(f.size(), 37u);
    const std::vector<uint8_t> expect = {1, 37, 4, 3, 1, 255, 0, 0, 0xEF, 0xBE,   // capture header
                                         4, 3, 2, 1, 5, 0, 0, 0, 0xD0, 0xC0, 0xB0, 0xA0, 0x34, 0x12,
                                         3, 1, 0, 0x02, 0x01, 99, 0, 0, 0, 0xEF, 0xBE, 0xAD, 0xDE};
    EXPECT_EQ(std::vector<uint8_t>(f.begin(), f.end()), expect);
}

TEST(Capture, SameTrafficGivesTheSameBytes) {
    auto run = [](const std::string& path) {
        sim::Kernel k;
        NetworkParams params;
        params.link.bit_error_rate = 2e-4;  // retries and their comments too
        params.seed = 5;
        Network net(k, Mesh3D{{2, 2, 1}, {false, false, false}}, params);
        auto nics = make_nics(net);
        Capture cap(net, spec_of(path, {{"node 0", {0}}, {"node 3", {3}}}, {0, 1, 2}));
        for (uint32_t m = 0; m < 40; ++m)  // each node to each other node, 1..40 bytes
            nics[m % 4]->send(make_frame<64>(m % 4, (m % 4 + 1 + (m / 4) % 3) % 4, m, uint16_t(1 + m)));
        k.run_until(Time::us(50));
        cap.close();
        EXPECT_GT(net.stats().retries, 0u);
        std::ifstream in(path, std::ios::binary);
        return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    };
    const std::string a = temp_path("det_a.pcapng"), b = temp_path("det_b.pcapng");
    const std::string bytes = run(a);
    EXPECT_GT(bytes.size(), 1000u);
    EXPECT_EQ(bytes, run(b));
    EXPECT_NE(bytes.find("link-level retr"), std::string::npos);
    std::filesystem::remove(a);
    std::filesystem::remove(b);
}

// The network computes link CRCs only while something looks at them (Network::inject):
// a tap set while packets are in flight still sees every one carry its correct CRC,
// those injected before it too; before the tap, none was computed.
TEST(Capture, ATapOpenedInFlightSeesCorrectLinkCrcs) {
    struct Recorder : PacketTap {
        uint64_t seen = 0, wrong = 0;
        void check(const PacketHeader& h, std::span<const uint8_t> payload) {
            ++seen;
            if (h.link_crc != compute_link_crc(h, payload)) ++wrong;
        }
        void injected(LinkId, Time, const PacketHeader& h, std::span<const uint8_t> p, uint8_t) override { check(h, p); }
        void transmitted(LinkId, Time, const PacketHeader& h, std::span<const uint8_t> p, uint8_t,
                         const Transmission&) override { check(h, p); }
        void arrived(LinkId, Time, const PacketHeader& h, std::span<const uint8_t> p, bool) override { check(h, p); }
    };
    sim::Kernel k;
    Network net(k, Mesh3D{{4, 1, 1}, {false, false, false}});
    auto nics = make_nics(net);
    for (uint32_t m = 0; m < 200; ++m) nics[m % 4]->send(make_frame<64>(m % 4, 3 - m % 4, m, uint16_t(1 + m % 64)));
    k.run_until(Time::us(1));
    ASSERT_GT(net.packets_in_flight(), 10u);
    Recorder tap;
    net.set_tap(&tap);
    k.run_until(Time::us(100));
    net.set_tap(nullptr);
    EXPECT_GT(tap.seen, 300u);
    EXPECT_EQ(tap.wrong, 0u);
    uint64_t delivered = 0, crc_set = 0;
    for (const auto& nic : nics)
        for (const auto& got : nic->log) {
            ++delivered;
            if (got.packet.link_crc != 0) ++crc_set;
        }
    EXPECT_EQ(delivered, 200u);
    EXPECT_LT(crc_set, delivered) << "the packets delivered before the tap carried no CRC";
}

TEST(Capture, LinkTapNamesRouterPorts) {
    sim::Kernel k;
    Network net(k, Mesh3D{{2, 1, 1}, {false, false, false}});
    bool found = false;
    for (LinkId l = 0; l < net.links().size(); ++l) {
        const std::string d = Capture::link_description(net, l);
        if (d.rfind("router 0 port", 0) == 0 && d.find("-> router 1 port") != std::string::npos) found = true;
    }
    EXPECT_TRUE(found);
    EXPECT_EQ(Capture::link_description(net, net.injection_link(1)).substr(0, 15), "node 1 -> route");
}

void expect_capture_error(Network& net, const CaptureSpec& spec, const std::string& tap, const std::string& says,
                          const PacketTap* tap_after = nullptr) {
    try {
        Capture cap(net, spec);
        ADD_FAILURE() << "no error for " << tap;
    } catch (const CaptureError& e) {
        EXPECT_EQ(e.tap(), tap);
        EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
    }
    EXPECT_FALSE(std::filesystem::exists(spec.path)) << "a refused capture leaves no file";
    EXPECT_EQ(net.tap(), tap_after);
}

TEST(Capture, BadTapsAreTypedErrorsNamingThem) {
    DirectPair p;
    const std::string path = temp_path("bad.pcapng");
    expect_capture_error(p.net, spec_of(path, {}, {2}), "link 2", "link 2 does not exist: the network has links 0..1");
    expect_capture_error(p.net, spec_of(path, {{"node 5", {5}}}), "node 5", "node 5 does not exist");
    expect_capture_error(p.net, spec_of(path, {}, {1, 1}), "link 1", "link 1 is tapped twice");
    expect_capture_error(p.net, spec_of(path, {{"node 0", {0}}, {"node 0", {0}}}), "node 0", "tapped twice");
    expect_capture_error(p.net, spec_of(path, {}), "", "no taps");
    {
        const std::string first = temp_path("first.pcapng");
        Capture cap(p.net, spec_of(first, {{"node 0", {0}}}));
        expect_capture_error(p.net, spec_of(path, {}, {0}), "", "already being captured", &cap);
        cap.close();
        std::filesystem::remove(first);
    }
}

}  // namespace
}  // namespace niclab::net
