// RSP framing: checksums, escaping, and a byte stream cut anywhere.
#include <gtest/gtest.h>

#include "niclab/debug/rsp_packet.hpp"

namespace niclab::debug {
namespace {

std::vector<RspEvent> drain(PacketReader& r) {
    std::vector<RspEvent> out;
    while (auto e = r.next()) out.push_back(*e);
    return out;
}

TEST(RspPacket, ChecksumIsTheModulo256SumInTwoHexDigits) {
    EXPECT_EQ(rsp_checksum("OK"), 0x9a);
    EXPECT_EQ(rsp_frame("OK"), "$OK#9a");
    EXPECT_EQ(rsp_frame(""), "$#00");
    EXPECT_EQ(rsp_frame("qSupported"), "$qSupported#37");
}

TEST(RspPacket, SpecialBytesAreEscapedAndRoundTrip) {
    std::string raw = std::string("a$b#c}d*e") + char(0) + char(0xff);
    std::string esc = rsp_escape(raw);
    EXPECT_EQ(esc.find_first_of("$#*"), std::string::npos);
    EXPECT_EQ(rsp_unescape(esc), raw);
    EXPECT_EQ(rsp_frame("}"), "$}]#da");  // '}' ^ 0x20 = ']'; the sum covers the bytes as sent
}

TEST(RspPacket, ReaderSplitsAcksInterruptsAndPacketsCutAnywhere) {
    std::string stream("+");
    stream += rsp_frame("m80000000,4");
    stream += "-\x03";
    stream += rsp_frame("X0,2:}]*");
    PacketReader r;
    for (char c : stream) r.feed(std::string_view(&c, 1));  // one byte at a time
    auto ev = drain(r);
    ASSERT_EQ(ev.size(), 5u);
    EXPECT_EQ(ev[0].kind, RspEvent::Kind::Ack);
    EXPECT_EQ(ev[1].kind, RspEvent::Kind::Packet);
    EXPECT_EQ(ev[1].payload, "m80000000,4");
    EXPECT_EQ(ev[2].kind, RspEvent::Kind::Nack);
    EXPECT_EQ(ev[3].kind, RspEvent::Kind::Interrupt);
    EXPECT_EQ(ev[4].kind, RspEvent::Kind::Packet);
    EXPECT_EQ(ev[4].payload, "X0,2:}]*");  // unescaped again
    EXPECT_FALSE(r.in_packet());
}

TEST(RspPacket, BadChecksumIsReportedNotDelivered) {
    PacketReader r;
    r.feed("$OK#00$g#67");
    auto ev = drain(r);
    ASSERT_EQ(ev.size(), 2u);
    EXPECT_EQ(ev[0].kind, RspEvent::Kind::BadChecksum);
    EXPECT_EQ(ev[1].kind, RspEvent::Kind::Packet);
    EXPECT_EQ(ev[1].payload, "g");
    r.feed("$g#zz");
    ev = drain(r);
    ASSERT_EQ(ev.size(), 1u);
    EXPECT_EQ(ev[0].kind, RspEvent::Kind::BadChecksum);
}

TEST(RspPacket, HexHelpers) {
    EXPECT_EQ(to_hex_le32(0x12345678), "78563412");
    std::vector<uint8_t> b;
    EXPECT_TRUE(from_hex("00ff7A", b));
    EXPECT_EQ(b, (std::vector<uint8_t>{0x00, 0xff, 0x7a}));
    EXPECT_FALSE(from_hex("abc", b));
    EXPECT_FALSE(from_hex("zz", b));
    uint32_t v;
    EXPECT_TRUE(parse_hex_u32("80001000", v));
    EXPECT_EQ(v, 0x80001000u);
    EXPECT_FALSE(parse_hex_u32("", v));
    EXPECT_FALSE(parse_hex_u32("123456789", v));
}

}  // namespace
}  // namespace niclab::debug
