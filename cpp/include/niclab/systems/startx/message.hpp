#pragma once
// The StarT-X message (seed 002 §5.1 L149-151, Figure 3(b)): two 32-bit header words
// followed by a payload of 2 to 22 32-bit words, so 16 to 96 bytes in all, which is
// also the largest message a queue slot holds (002 §4 L126). The first header word
// carries the routing fields the paper names — down-route (the receiver's id),
// up-route, the random-up-route bit, the priority bit — and, because a message launches
// by itself when its last word is enqueued (002 §5.1 L153), its length.
//
// assumption: Figure 3(b) itself is lost (digest S19), so the bit layout is ours:
//
//   word 0:  31..16  down_route   receiver node id
//            15..8   up_route     one bit per fat-tree level (0 = left parent)
//             7      reserved     must be 0
//             6      random_up    spread the up-route randomly (no FIFO order)
//             5      priority     1 = high, 0 = low (selects the Arctic virtual network)
//             4..0   payload_words   2..22
//   word 1:  free for software (JAM puts its handler index and the sender there).
//
// Words travel as little-endian 32-bit values in host memory and on PCI (niclab's hosts
// are little-endian; on the big-endian UltraSPARC the bridge's byte lanes would do
// this, which costs no time).
#include <array>
#include <cstdint>
#include <span>
#include <string>

#include "niclab/sim/error.hpp"

namespace niclab::startx {

inline constexpr uint32_t kHeaderWords = 2;
inline constexpr uint32_t kMinPayloadWords = 2;   // 002 §5.1 L149
inline constexpr uint32_t kMaxPayloadWords = 22;  // 002 §5.1 L149
inline constexpr uint32_t kMaxWords = kHeaderWords + kMaxPayloadWords;  // 24 words = 96 B
inline constexpr uint32_t kMaxBytes = kMaxWords * 4;

// Every StarT-X error derives from this; the message names the offending value.
class StartxError : public Error {
public:
    using Error::Error;
};
// A malformed message: a length field out of 2..22 (a 23-word payload), reserved bits
// set, a length field inconsistent with the words written, a priority bit that does not
// match the queue it was written to.
class MessageFormatError : public StartxError {
public:
    using StartxError::StartxError;
};
// A priority that is neither high nor low (from an integer, e.g. through Python).
class UnknownPriorityError : public StartxError {
public:
    using StartxError::StartxError;
};
// A write into a full transmit queue (the status word said it would overflow).
class QueueOverflowError : public StartxError {
public:
    using StartxError::StartxError;
};
// A read of a receive queue that holds no word.
class EmptyQueueError : public StartxError {
public:
    using StartxError::StartxError;
};
// A violation of the RDMA rules of 002 §5.3: RDMA into a window the receiver did not
// open (or opened for another sender), RDMA with random up-route, a VI or PIO
// high-priority send while RDMA owns the high-priority queue, a second RDMA at once.
class RdmaError : public StartxError {
public:
    using StartxError::StartxError;
};
// Misuse of a driver operation (a VI batch that ends inside a message, a DMA region
// that is not word aligned, an unknown register).
class DriverError : public StartxError {
public:
    using StartxError::StartxError;
};

enum class Priority : uint8_t { high = 0, low = 1 };
inline constexpr uint32_t kPriorities = 2;
// UnknownPriorityError for anything but 0 (high) and 1 (low).
Priority priority_from_int(int value);
const char* to_string(Priority p);

struct Header {
    uint16_t down_route = 0;  // receiver node id
    uint8_t up_route = 0;
    bool random_up = false;
    Priority priority = Priority::high;
    uint8_t payload_words = kMinPayloadWords;

    uint32_t total_words() const { return kHeaderWords + payload_words; }
    // MessageFormatError when payload_words is outside 2..22.
    uint32_t pack() const;
    // MessageFormatError for a length field outside 2..22 or reserved bits set.
    static Header unpack(uint32_t word0);
};

// One message as it sits in a queue: up to 24 words.
struct Message {
    std::array<uint32_t, kMaxWords> words{};
    uint8_t n_words = 0;

    Header header() const { return Header::unpack(words[0]); }
    std::span<const uint32_t> span() const { return {words.data(), n_words}; }
    uint32_t bytes() const { return uint32_t(n_words) * 4; }
    // Build a message from a header, the software word and payload words (the length
    // field is set from payload.size(); MessageFormatError if it is not 2..22).
    static Message make(Header h, uint32_t word1, std::span<const uint32_t> payload);
    // The message as little-endian bytes (n_words * 4), e.g. to store through PIO.
    void to_bytes(std::span<uint8_t> out) const;
};

// A message on the Arctic link: the words plus the 16-bit CRC the sender's back end
// appends (002 §4 L139) and what the model knows besides the wire bits.
struct WireMessage {
    Message msg;
    uint16_t crc = 0;
    // Model metadata, not on the wire: the injecting node and whether the message is part
    // of an RDMA stream. The real receiver cannot tell RDMA messages apart (002 §5.3); the
    // model uses this to report the protocol violations the hardware would silently
    // corrupt data on.
    uint32_t source = 0;
    bool rdma = false;

    Header header() const { return msg.header(); }
    uint32_t link_bytes() const { return msg.bytes() + 2; }  // words + CRC
};

// CRC-16 over the message's words as little-endian bytes (net::crc16_ccitt).
// assumption: the Arctic CRC polynomial is not given in 002; CCITT is used.
uint16_t message_crc(const Message& m);

}  // namespace niclab::startx
