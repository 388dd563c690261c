#pragma once
// The two checksums of the SeaStar data path (seed 001 §2): a 16-bit CRC on each
// link hop, checked by the link-level retry protocol, and a 32-bit end-to-end CRC
// that the DMA engines compute over a whole message. Both are bit-exact with the common
// reference parameterisations, so firmware and tests can compute the same values; the
// CRC-16 is table-driven, eight bytes per step, and the CRC-32 is ISA-L's (it runs on
// every byte a SeaStar sends and receives).
#include <cstdint>
#include <span>

namespace niclab::net {

// CRC-16-CCITT (poly 0x1021, init 0xFFFF, no reflection, no final xor: "CCITT-FALSE").
// Continue a running CRC by passing the previous result as `crc`.
uint16_t crc16_ccitt(std::span<const uint8_t> bytes, uint16_t crc = 0xFFFF);

// CRC-32 (IEEE 802.3, reflected, init and final xor 0xFFFFFFFF). Continue a running
// CRC over several buffers by passing the previous result as `crc`.
uint32_t crc32(std::span<const uint8_t> bytes, uint32_t crc = 0);

}  // namespace niclab::net
