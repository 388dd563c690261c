#pragma once
// The DSNIC protocol's three characters per packet (seed 003 §6.4 L576: "apart from the
// DS link routing header, three characters are used for protocol specific information,
// independent of the payload size"). Their layout is not in the seed (A-D14); ours:
//   character 0: kind (2 bits) and virtual link (6 bits)
//   characters 1-2: a 16-bit sequence number (data), the cumulative acknowledgement
//                   (ack) or the credit limit (credit), modulo 2^16
// They travel in net::PacketHeader::message_id (low 24 bits); the link charges them as
// net.protocol_bytes characters of every packet, acks and credits included.
// The benchmarks' message tag (msg::Transport::send's `tag`, which marks the last
// message of a stream burst) is not part of the CSP API: it rides out of band in the
// last packet's net::PacketHeader::message_bytes and costs no link time.
#include <cstdint>

namespace niclab::dsnic {

enum class Kind : uint8_t {
    data = 0,  // a full packet of a message (payload = packet size)
    last = 1,  // the last packet of a message (payload 0..packet size)
    ack = 2,   // cumulative acknowledgement: every packet before `seq` arrived
    credit = 3,  // the receiver lets the sender send packets before `seq`
};

inline constexpr uint32_t kVirtualLinks = 64;

struct Protocol {
    Kind kind = Kind::data;
    uint8_t vl = 0;
    uint16_t seq = 0;

    uint32_t encode() const { return uint32_t(uint8_t(kind) << 6 | (vl & 63)) << 16 | seq; }
    static Protocol decode(uint32_t chars) {
        Protocol p;
        p.kind = Kind((chars >> 22) & 3);
        p.vl = uint8_t((chars >> 16) & 63);
        p.seq = uint16_t(chars);
        return p;
    }
    bool is_data() const { return kind == Kind::data || kind == Kind::last; }
};

// Sequence numbers wrap at 2^16: a is before b when b - a is in (0, 2^15).
inline bool seq_before(uint16_t a, uint16_t b) { return int16_t(uint16_t(b - a)) > 0; }

}  // namespace niclab::dsnic
