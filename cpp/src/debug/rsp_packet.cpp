#include "niclab/debug/rsp_packet.hpp"

namespace niclab::debug {

namespace {
constexpr char kHex[] = "0123456789abcdef";
int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}
bool needs_escape(char c) { return c == '$' || c == '#' || c == '}' || c == '*'; }
}  // namespace

uint8_t rsp_checksum(std::string_view payload) {
    uint8_t sum = 0;
    for (char c : payload) sum = uint8_t(sum + uint8_t(c));
    return sum;
}

std::string rsp_escape(std::string_view raw) {
    std::string out;
    out.reserve(raw.size());
    for (char c : raw) {
        if (needs_escape(c)) {
            out.push_back('}');
            out.push_back(char(c ^ 0x20));
        } else {
            out.push_back(c);
        }
    }
    return out;
}

std::string rsp_unescape(std::string_view escaped) {
    std::string out;
    out.reserve(escaped.size());
    for (size_t i = 0; i < escaped.size(); ++i) {
        if (escaped[i] == '}' && i + 1 < escaped.size()) out.push_back(char(escaped[++i] ^ 0x20));
        else out.push_back(escaped[i]);
    }
    return out;
}

std::string rsp_frame(std::string_view payload) {
    std::string body = rsp_escape(payload);
    uint8_t sum = rsp_checksum(body);  // the checksum covers the bytes as sent
    std::string out = "$" + body + "#";
    out.push_back(kHex[sum >> 4]);
    out.push_back(kHex[sum & 15]);
    return out;
}

std::string to_hex(const uint8_t* data, size_t n) {
    std::string out;
    out.reserve(2 * n);
    for (size_t i = 0; i < n; ++i) {
        out.push_back(kHex[data[i] >> 4]);
        out.push_back(kHex[data[i] & 15]);
    }
    return out;
}

std::string to_hex_le32(uint32_t v) {
    uint8_t b[4] = {uint8_t(v), uint8_t(v >> 8), uint8_t(v >> 16), uint8_t(v >> 24)};
    return to_hex(b, 4);
}

bool from_hex(std::string_view hex, std::vector<uint8_t>& out) {
    if (hex.size() % 2) return false;
    out.clear();
    for (size_t i = 0; i < hex.size(); i += 2) {
        int hi = hex_digit(hex[i]), lo = hex_digit(hex[i + 1]);
        if (hi < 0 || lo < 0) return false;
        out.push_back(uint8_t(hi << 4 | lo));
    }
    return true;
}

bool parse_hex_u32(std::string_view hex, uint32_t& out) {
    if (hex.empty() || hex.size() > 8) return false;
    out = 0;
    for (char c : hex) {
        int d = hex_digit(c);
        if (d < 0) return false;
        out = out << 4 | uint32_t(d);
    }
    return true;
}

void PacketReader::feed(std::string_view bytes) {
    for (char c : bytes) {
        switch (state_) {
            case State::Idle:
                if (c == '$') {
                    payload_.clear();
                    sum_ = 0;
                    state_ = State::Payload;
                } else if (c == '+') {
                    ready_.push_back({RspEvent::Kind::Ack, {}});
                } else if (c == '-') {
                    ready_.push_back({RspEvent::Kind::Nack, {}});
                } else if (c == '\x03') {
                    ready_.push_back({RspEvent::Kind::Interrupt, {}});
                }  // anything else between packets is line noise
                break;
            case State::Payload:
            case State::Escape:
                if (c == '#' && state_ == State::Payload) {
                    state_ = State::Check1;
                    break;
                }
                sum_ = uint8_t(sum_ + uint8_t(c));
                if (state_ == State::Escape) {
                    payload_.push_back(char(c ^ 0x20));
                    state_ = State::Payload;
                } else if (c == '}') {
                    state_ = State::Escape;
                } else {
                    payload_.push_back(c);
                }
                break;
            case State::Check1: {
                int d = hex_digit(c);
                check_ = uint8_t(d < 0 ? 0 : d);
                state_ = d < 0 ? State::Idle : State::Check2;
                if (d < 0) ready_.push_back({RspEvent::Kind::BadChecksum, {}});
                break;
            }
            case State::Check2: {
                int d = hex_digit(c);
                state_ = State::Idle;
                if (d < 0 || uint8_t(check_ << 4 | d) != sum_) ready_.push_back({RspEvent::Kind::BadChecksum, {}});
                else ready_.push_back({RspEvent::Kind::Packet, std::move(payload_)});
                payload_.clear();
                break;
            }
        }
    }
}

std::optional<RspEvent> PacketReader::next() {
    if (ready_.empty()) return std::nullopt;
    RspEvent e = std::move(ready_.front());
    ready_.pop_front();
    return e;
}

}  // namespace niclab::debug
