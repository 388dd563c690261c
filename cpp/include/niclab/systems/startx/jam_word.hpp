#pragma once
// JAM's use of a StarT-X message's second header word, the one the hardware leaves to
// software (message.hpp). The hardware header names the receiver but not the sender
// (seed 002 §5.1 L151), so JAM puts the sender there, what kind of JAM traffic the
// message is, and for multi-message transfers where it sits in the transfer. Layout
// (ours; seed 002 gives none):
//
//   31..24  sender node id
//   23..22  kind: 0 stream fragment, 1 RPC fragment, 2 control
//   21      first   the first message of a transfer
//   20      last    the last message of a transfer
//   19      repeat  (stream, first) the transfer's tag equals the previous transfer's
//   18..12  pad     payload bytes at the end of this message that are not data (a transfer
//                   need not fill whole words, a message carries at least two payload
//                   words, and a 64-byte message always carries 14)
//   11..0   stream, first: the tag when it fits 12 bits; control: the control code
//
// A stream transfer whose tag neither fits 12 bits nor repeats is preceded by a control
// message (code tag_descriptor) whose payload holds the 64-bit tag.
#include <cstdint>

#include "niclab/systems/startx/message.hpp"

namespace niclab::startx {

enum class JamKind : uint8_t { stream = 0, rpc = 1, control = 2 };

enum class JamControl : uint16_t {
    tag_descriptor = 1,  // payload: tag (2 words)
    rdma_request = 2,    // payload: bytes, tag lo, tag hi, handler
    rdma_grant = 3,      // payload: 2 words of zero
};

inline constexpr uint32_t kMaxJamNodes = 256;
inline constexpr uint64_t kInlineTagLimit = 1u << 12;

struct JamWord {
    uint32_t sender = 0;
    JamKind kind = JamKind::stream;
    bool first = false;
    bool last = false;
    uint32_t pad = 0;
    bool repeat = false;
    uint32_t low = 0;  // inline tag or control code

    uint32_t pack() const {
        return (sender & 0xFF) << 24 | (uint32_t(kind) & 3) << 22 | uint32_t(first) << 21 | uint32_t(last) << 20 |
               uint32_t(repeat) << 19 | (pad & 0x7F) << 12 | (low & 0xFFF);
    }
    static JamWord unpack(uint32_t w) {
        JamWord j;
        j.sender = w >> 24;
        j.kind = JamKind((w >> 22) & 3);
        j.first = (w >> 21) & 1;
        j.last = (w >> 20) & 1;
        j.repeat = (w >> 19) & 1;
        j.pad = (w >> 12) & 0x7F;
        j.low = w & 0xFFF;
        return j;
    }
};

// Payload words of a message carrying `bytes` of data (at least the hardware's two).
inline uint32_t payload_words_for(uint32_t bytes) {
    const uint32_t words = (bytes + 3) / 4;
    return words < kMinPayloadWords ? kMinPayloadWords : words;
}

}  // namespace niclab::startx
