#include "niclab/net/packet.hpp"

#include "niclab/net/crc.hpp"

namespace niclab::net {

namespace {
template <typename T>
uint8_t* put(uint8_t* out, T v) {
    for (std::size_t i = 0; i < sizeof(T); ++i) *out++ = uint8_t(uint64_t(v) >> (8 * i));
    return out;
}
}  // namespace

std::array<uint8_t, Packet::kHeaderBytes> header_bytes(const Packet& p) {
    std::array<uint8_t, Packet::kHeaderBytes> h{};
    uint8_t* o = h.data();
    o = put(o, p.src);
    o = put(o, p.dst);
    o = put(o, p.message_id);
    o = put(o, p.sequence);
    o = put(o, uint8_t((p.head ? 1 : 0) | (p.tail ? 2 : 0)));
    o = put(o, p.length);
    o = put(o, p.message_bytes);
    put(o, p.message_crc);
    return h;
}

uint16_t compute_link_crc(const Packet& p) {
    const auto h = header_bytes(p);
    return crc16_ccitt(p.data(), crc16_ccitt(h));
}

}  // namespace niclab::net
