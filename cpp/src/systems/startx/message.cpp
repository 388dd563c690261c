// The StarT-X message format: header packing (our layout, see message.hpp), building
// messages and their CRC.
#include <string>

#include "niclab/net/crc.hpp"
#include "niclab/systems/startx/message.hpp"

namespace niclab::startx {

Priority priority_from_int(int value) {
    if (value == 0) return Priority::high;
    if (value == 1) return Priority::low;
    throw UnknownPriorityError("StarT-X priority " + std::to_string(value) +
                               " is unknown: 0 is high, 1 is low");
}

const char* to_string(Priority p) { return p == Priority::high ? "high" : "low"; }

namespace {
void check_length(uint32_t payload_words) {
    if (payload_words < kMinPayloadWords || payload_words > kMaxPayloadWords)
        throw MessageFormatError("StarT-X message with " + std::to_string(payload_words) +
                                 " payload words: a message carries 2 to 22 after its 2 header words");
}
}  // namespace

uint32_t Header::pack() const {
    check_length(payload_words);
    if (priority != Priority::high && priority != Priority::low)
        throw UnknownPriorityError("StarT-X header with priority " + std::to_string(int(priority)));
    return uint32_t(down_route) << 16 | uint32_t(up_route) << 8 | (random_up ? 1u << 6 : 0u) |
           (priority == Priority::high ? 1u << 5 : 0u) | payload_words;
}

Header Header::unpack(uint32_t word0) {
    if (word0 & (1u << 7))
        throw MessageFormatError("StarT-X header word 0x" + [&] {
            char b[12];
            std::snprintf(b, sizeof b, "%08x", word0);
            return std::string(b);
        }() + " has its reserved bit 7 set");
    Header h;
    h.payload_words = uint8_t(word0 & 0x1f);
    check_length(h.payload_words);
    h.priority = (word0 & (1u << 5)) ? Priority::high : Priority::low;
    h.random_up = (word0 >> 6) & 1;
    h.up_route = uint8_t(word0 >> 8);
    h.down_route = uint16_t(word0 >> 16);
    return h;
}

Message Message::make(Header h, uint32_t word1, std::span<const uint32_t> payload) {
    if (payload.size() < kMinPayloadWords || payload.size() > kMaxPayloadWords)
        check_length(uint32_t(payload.size()));
    h.payload_words = uint8_t(payload.size());
    Message m;
    m.words[0] = h.pack();
    m.words[1] = word1;
    for (std::size_t i = 0; i < payload.size(); ++i) m.words[kHeaderWords + i] = payload[i];
    m.n_words = uint8_t(kHeaderWords + payload.size());
    return m;
}

void Message::to_bytes(std::span<uint8_t> out) const {
    if (out.size() < bytes())
        throw MessageFormatError("a " + std::to_string(bytes()) + "-byte message does not fit " +
                                 std::to_string(out.size()) + " bytes");
    for (uint32_t i = 0; i < n_words; ++i)
        for (uint32_t b = 0; b < 4; ++b) out[4 * i + b] = uint8_t(words[i] >> (8 * b));
}

uint16_t message_crc(const Message& m) {
    uint8_t bytes[kMaxBytes];
    m.to_bytes(bytes);
    return net::crc16_ccitt(std::span<const uint8_t>(bytes, m.bytes()));
}

}  // namespace niclab::startx
