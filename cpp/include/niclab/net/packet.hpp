#pragma once
// A network packet as the routers see it: a header (routing, flow control, the
// fields the sending and receiving NICs exchange) apart from a payload of 0 up to
// the network's max_payload bytes. The header layout is ours (the seeds give none):
// it has what routing, reassembly and the two CRCs need, and nothing else.
//
// A NIC builds its frames as a BasicPacket<N>, N being its system's largest payload,
// and hands the network a PacketView of it; the network copies the payload into
// fixed slots of its own capacity and hands the receiving NIC a PacketView again.
// So one network type carries SeaStar's 64-byte frames, StarT-X's 96-byte messages
// and DS-link packets of 4096 bytes, and a 64-byte network costs what it always did.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace niclab::net {

using NodeId = uint32_t;

struct PacketHeader {
    // The largest payload any network may be built for (DS-link packets).
    static constexpr std::size_t kMaxPayloadLimit = 4096;
    // Bytes of the header as serialised for the link CRC (see header_bytes()).
    static constexpr std::size_t kHeaderBytes = 27;

    NodeId src = 0;
    NodeId dst = 0;
    uint32_t message_id = 0;   // chosen by the sending NIC, unique per source
    uint16_t sequence = 0;     // packet number within the message, from 0
    bool head = false;         // first packet of its message
    bool tail = false;         // last packet of its message: message_crc is valid
    uint16_t length = 0;       // payload bytes in use, 0..the network's max_payload
    // Virtual network (priority class): 0 is the highest priority. Each vnet has its
    // own buffers and credits everywhere, so a full lower-priority vnet cannot block it.
    uint8_t vnet = 0;
    // On the up-going half of a fat tree, let each router pick the up port at random
    // (Arctic's adaptive up-route) instead of the table's fixed one. Gives up FIFO order.
    bool random_up_route = false;
    // Bytes of the whole message (every packet carries it): the receiving DMA engine
    // tells its firmware the length when the head packet arrives (NIC lead's addition).
    uint32_t message_bytes = 0;
    // End-to-end CRC-32 of the whole message, computed by the sending NIC's DMA
    // engine and checked by the receiving one; the network only carries it.
    uint32_t message_crc = 0;
    // CRC-16-CCITT over header_bytes() + payload, set by the network on injection and
    // checked per hop by link-level retry - while a capture or bit errors need it
    // (Network::inject), 0 otherwise.
    uint16_t link_crc = 0;
    // Source routing (Myrinet): the first route_bytes bytes of the payload are the
    // output port to take at each router in turn. Each router consumes its byte,
    // which leaves the packet (length and route_bytes one less), so the receiver
    // gets the payload behind the route. 0: the network routes by its table.
    uint8_t route_bytes = 0;
    // Unused. Without it the header's last byte is padding that a frame or view built on
    // it may reuse, so copying the header moved 31 bytes, as two overlapping 16-byte
    // halves, and a read of the first half right after waited for both to reach the
    // cache (a stall on store forwarding at every packet a NIC injects).
    uint8_t unused = 0;
};
static_assert(sizeof(PacketHeader) == 32);

template <std::size_t N>
struct BasicPacket;

// A header and its payload bytes, owned elsewhere: what inject() takes and deliver()
// hands over. `payload` spans exactly the bytes in use.
struct PacketView : PacketHeader {
    std::span<const uint8_t> payload;

    PacketView(const PacketHeader& h, std::span<const uint8_t> bytes) : PacketHeader(h), payload(bytes) {}
    template <std::size_t N>
    PacketView(const BasicPacket<N>& p);  // NOLINT: a frame is viewed implicitly

    std::span<const uint8_t> data() const { return payload; }
};

// A frame with room for N payload bytes, for NICs and tests that build packets.
template <std::size_t N>
struct BasicPacket : PacketHeader {
    static_assert(N <= kMaxPayloadLimit, "payload capacity above the 4096-byte limit");
    static constexpr std::size_t kMaxPayload = N;
    std::array<uint8_t, N> payload{};

    std::span<const uint8_t> data() const { return {payload.data(), std::min<std::size_t>(length, N)}; }
    std::span<uint8_t> data() { return {payload.data(), std::min<std::size_t>(length, N)}; }

    // An owning copy of a delivered packet; false when its payload does not fit.
    static bool copy_from(const PacketView& v, BasicPacket& out) {
        if (v.payload.size() > N) return false;
        static_cast<PacketHeader&>(out) = v;
        std::copy(v.payload.begin(), v.payload.end(), out.payload.begin());
        return true;
    }
};

template <std::size_t N>
PacketView::PacketView(const BasicPacket<N>& p) : PacketHeader(p), payload(p.data()) {}

// SeaStar's frame: SeaStar routes 64-byte packets (seed 001 §2).
struct Packet : BasicPacket<64> {
    // Bytes a SeaStar packet costs on the wire besides its payload: a 24-byte header
    // + the 16-bit link CRC (our layout; the default of LinkParams::overhead_bytes).
    static constexpr std::size_t kWireOverhead = 26;
};

// The header in wire order (little-endian fields), the input of the link CRC.
std::array<uint8_t, PacketHeader::kHeaderBytes> header_bytes(const PacketHeader& p);

// The link CRC a correct copy of a packet carries.
uint16_t compute_link_crc(const PacketHeader& h, std::span<const uint8_t> payload);
inline uint16_t compute_link_crc(const PacketView& p) { return compute_link_crc(p, p.payload); }

}  // namespace niclab::net
