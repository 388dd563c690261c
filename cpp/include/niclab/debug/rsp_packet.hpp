#pragma once
// GDB remote serial protocol framing (GDB manual, "Overview" of the remote protocol):
// a packet is $payload#cs, cs the modulo-256 sum of the payload bytes in two hex
// digits; '$', '#', '}' and '*' inside a payload are escaped as '}' then the byte
// xor 0x20. Outside packets the peer sends '+' (ack), '-' (resend please) and the
// byte 0x03 (interrupt: Ctrl-C). PacketReader turns a byte stream cut anywhere into
// those events; the rest are helpers for the hex and binary encodings payloads use.
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace niclab::debug {

uint8_t rsp_checksum(std::string_view payload);
// "$payload#cs" with the payload escaped.
std::string rsp_frame(std::string_view payload);
// Binary data in a payload (X packets, qXfer replies).
std::string rsp_escape(std::string_view raw);
std::string rsp_unescape(std::string_view escaped);

std::string to_hex(const uint8_t* data, size_t n);
std::string to_hex_le32(uint32_t v);  // a register: target (little-endian) byte order
// false for odd length or a non-hex digit.
bool from_hex(std::string_view hex, std::vector<uint8_t>& out);
bool parse_hex_u32(std::string_view hex, uint32_t& out);  // a number: big-endian digits

struct RspEvent {
    enum class Kind { Packet, Ack, Nack, Interrupt, BadChecksum };
    Kind kind;
    std::string payload;  // Packet: unescaped
};

class PacketReader {
public:
    void feed(std::string_view bytes);
    std::optional<RspEvent> next();
    bool in_packet() const { return state_ != State::Idle; }

private:
    enum class State { Idle, Payload, Escape, Check1, Check2 };
    State state_ = State::Idle;
    std::string payload_;
    uint8_t sum_ = 0;
    uint8_t check_ = 0;
    std::deque<RspEvent> ready_;
};

}  // namespace niclab::debug
