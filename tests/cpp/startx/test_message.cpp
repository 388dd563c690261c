// The message format and the status word: packing, limits, typed errors.
#include <gtest/gtest.h>

#include "startx_test_support.hpp"

namespace niclab::startx::test {
namespace {

TEST(StartxMessage, HeaderRoundTrips) {
    Header h;
    h.down_route = 0xBEEF;
    h.up_route = 0x5A;
    h.random_up = true;
    h.priority = Priority::low;
    h.payload_words = 22;
    const Header u = Header::unpack(h.pack());
    EXPECT_EQ(u.down_route, 0xBEEF);
    EXPECT_EQ(u.up_route, 0x5A);
    EXPECT_TRUE(u.random_up);
    EXPECT_EQ(u.priority, Priority::low);
    EXPECT_EQ(u.payload_words, 22);
    EXPECT_EQ(u.total_words(), kMaxWords);
}

TEST(StartxMessage, LengthsOutsideTwoToTwentyTwoAreTypedErrors) {
    Header h;
    h.payload_words = 23;  // a 23-word payload
    try {
        h.pack();
        FAIL();
    } catch (const MessageFormatError& e) {
        EXPECT_NE(std::string(e.what()).find("23 payload words"), std::string::npos);
    }
    EXPECT_THROW(Header::unpack(0x20 | 1), MessageFormatError);   // 1 word
    EXPECT_THROW(Header::unpack(0x20 | 23), MessageFormatError);  // 23 words
    EXPECT_THROW(Header::unpack(0x80 | 0x20 | 2), MessageFormatError);  // reserved bit
    std::array<uint32_t, 23> pl{};
    EXPECT_THROW(Message::make(Header{}, 0, pl), MessageFormatError);
}

TEST(StartxMessage, UnknownPriorityIsATypedError) {
    EXPECT_EQ(priority_from_int(0), Priority::high);
    EXPECT_EQ(priority_from_int(1), Priority::low);
    try {
        priority_from_int(2);
        FAIL();
    } catch (const UnknownPriorityError& e) {
        EXPECT_NE(std::string(e.what()).find("priority 2"), std::string::npos);
    }
}

TEST(StartxMessage, CrcCoversEveryWord) {
    Message m = make_msg(1, Priority::high, 4, 7);
    const uint16_t c = message_crc(m);
    m.words[5] ^= 0x100;
    EXPECT_NE(message_crc(m), c);
}

TEST(StartxStatus, PacksAllFourCountsAndFlags) {
    Status s;
    s.tx_space = {20, 3};
    s.rx_count = {16, 1};
    s.rdma_window_open = true;
    s.tx_dma_busy = true;
    const Status u = Status::unpack(s.pack());
    EXPECT_EQ(u.tx_space[0], 20);
    EXPECT_EQ(u.tx_space[1], 3);
    EXPECT_EQ(u.rx_count[0], 16);
    EXPECT_EQ(u.rx_count[1], 1);
    EXPECT_TRUE(u.rdma_window_open);
    EXPECT_TRUE(u.tx_dma_busy);
    EXPECT_FALSE(u.vi_rx_armed);
}

TEST(StartxParams, ValidationNamesTheField) {
    NiuParams p;
    p.rdma_chunk_words = 23;
    try {
        p.validate();
        FAIL();
    } catch (const StartxError& e) {
        EXPECT_NE(std::string(e.what()).find("rdma_chunk_words"), std::string::npos);
    }
}

}  // namespace
}  // namespace niclab::startx::test
