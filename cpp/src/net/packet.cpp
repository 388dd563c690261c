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

std::array<uint8_t, PacketHeader::kHeaderBytes> header_bytes(const PacketHeader& p) {
    std::array<uint8_t, PacketHeader::kHeaderBytes> h{};
    uint8_t* o = h.data();
    o = put(o, p.src);
    o = put(o, p.dst);
    o = put(o, p.message_id);
    o = put(o, p.sequence);
    o = put(o, uint8_t((p.head ? 1 : 0) | (p.tail ? 2 : 0) | (p.random_up_route ? 4 : 0)));
    o = put(o, p.vnet);
    o = put(o, p.route_bytes);
    o = put(o, p.length);
    o = put(o, p.message_bytes);
    put(o, p.message_crc);
    return h;
}

uint16_t compute_link_crc(const PacketHeader& h, std::span<const uint8_t> payload) {
    return crc16_ccitt(payload, crc16_ccitt(header_bytes(h)));
}

}  // namespace niclab::net
