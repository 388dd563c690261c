#pragma once
// A network packet as the router sees it. SeaStar routes 64-byte packets (seed 001
// §2); here a packet carries up to 64 bytes of real payload behind a small header.
// The header layout is ours (the seeds do not give SeaStar's): it has what routing,
// reassembly and the two CRCs need, and nothing else.
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace niclab::net {

using NodeId = uint32_t;

struct Packet {
    static constexpr std::size_t kMaxPayload = 64;
    // Bytes of the header as serialised for the link CRC (see header_bytes()).
    static constexpr std::size_t kHeaderBytes = 24;
    // Bytes a packet costs on the wire besides its payload: header + 16-bit link CRC.
    static constexpr std::size_t kWireOverhead = kHeaderBytes + 2;

    NodeId src = 0;
    NodeId dst = 0;
    uint32_t message_id = 0;   // chosen by the sending NIC, unique per source
    uint16_t sequence = 0;     // packet number within the message, from 0
    bool head = false;         // first packet of its message
    bool tail = false;         // last packet of its message: message_crc is valid
    uint8_t length = 0;        // payload bytes in use, 0..kMaxPayload
    // Bytes of the whole message (every packet carries it): the receiving DMA engine
    // tells its firmware the length when the head packet arrives (NIC lead's addition).
    uint32_t message_bytes = 0;
    // End-to-end CRC-32 of the whole message, computed by the sending NIC's DMA
    // engine and checked by the receiving one; the network only carries it.
    uint32_t message_crc = 0;
    // CRC-16-CCITT over header_bytes() + payload, set by the network on injection and
    // checked per hop by link-level retry.
    uint16_t link_crc = 0;
    std::array<uint8_t, kMaxPayload> payload{};

    std::span<const uint8_t> data() const { return {payload.data(), length}; }
    std::span<uint8_t> data() { return {payload.data(), length}; }
};

// The header in wire order (little-endian fields), the input of the link CRC.
std::array<uint8_t, Packet::kHeaderBytes> header_bytes(const Packet& p);

// The link CRC a correct copy of `p` carries.
uint16_t compute_link_crc(const Packet& p);

}  // namespace niclab::net
