#pragma once
// The two checksums of the SeaStar data path (seed 001 §2): a 16-bit CRC on each
// link hop, checked by the link-level retry protocol, and a 32-bit end-to-end CRC
// that the DMA engines compute over a whole message. Both are bit-exact with the common
// reference parameterisations, so firmware and tests can compute the same values; the
// CRC-16 is table-driven, eight bytes per step, and the CRC-32 is ISA-L's (it runs on
// every byte a SeaStar sends and receives).
#include <array>
#include <cstdint>
#include <span>

#include "niclab/sim/copy_bytes.hpp"

namespace niclab::net {

// CRC-16-CCITT (poly 0x1021, init 0xFFFF, no reflection, no final xor: "CCITT-FALSE").
// Continue a running CRC by passing the previous result as `crc`.
uint16_t crc16_ccitt(std::span<const uint8_t> bytes, uint16_t crc = 0xFFFF);

// CRC-32 (IEEE 802.3, reflected, init and final xor 0xFFFFFFFF). Continue a running
// CRC over several buffers by passing the previous result as `crc`.
uint32_t crc32(std::span<const uint8_t> bytes, uint32_t crc = 0);

// The CRC-32 of a stream that comes a packet at a time, folded N bytes at a time. The
// same value as crc32() piece by piece (the CRC of a concatenation is that of its
// pieces chained), but a call costs ISA-L about as much for 64 bytes as for 512 (15 and
// 24 ns here): a SeaStar's 64-byte packets, one call each on both ends, were 11 % of the
// 1 B-8 MB ping-pong sweep. The bytes are copied as they come, so the value is that of
// the bytes given, whatever happens to their source later.
template <std::size_t N>
class Crc32Batch {
public:
    void add(std::span<const uint8_t> bytes) {
        if (size_ + bytes.size() > N) fold();
        if (bytes.size() > N) {
            crc_ = crc32(bytes, crc_);
            return;
        }
        sim::copy_bytes(buf_.data() + size_, bytes.data(), bytes.size());  // a packet's 64 as a constant
        size_ += uint32_t(bytes.size());
    }
    uint32_t value() {
        fold();
        return crc_;
    }
    void clear() { crc_ = size_ = 0; }

private:
    void fold() {
        crc_ = crc32({buf_.data(), size_}, crc_);
        size_ = 0;
    }
    uint32_t crc_ = 0, size_ = 0;
    std::array<uint8_t, N> buf_;
};

}  // namespace niclab::net
