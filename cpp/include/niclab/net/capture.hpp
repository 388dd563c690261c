#pragma once
// A packet capture: taps on a network's nodes and links whose packets go into a pcapng
// file (pcapng_writer.hpp) that Wireshark and tshark read with niclab's dissector
// (python/niclab/wireshark/niclab.lua). The frame layout is in traces/CAPTURE.md.
//
// One pcapng interface per tap:
//  - a node: its NIC's cables, both ways (every network port of it). A packet is
//    recorded outbound when the NIC hands it to the network (Network::inject; it may
//    then wait for the cable) and inbound when its last byte is in the NIC's receive
//    buffer, as a host's capture stamps what its driver sends and receives.
//  - a link (a LinkId): every packet that goes onto the cable, when its first byte
//    does; no direction.
// Each record is the packet as the cable carries it: a small capture header (format,
// virtual channel, what the link did to it), niclab's PacketHeader in the layout of
// header_bytes() with its link CRC, then the payload bytes. Timestamps are simulated
// time in nanoseconds (picoseconds cut off).
//
// Capturing costs the network one null check per transmission while no capture is
// open; an open one writes through the writer's buffer and allocates nothing per
// packet. The file depends on the spec, the seed and the taps only.
#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "niclab/net/network.hpp"
#include "niclab/net/network_error.hpp"
#include "niclab/net/packet_tap.hpp"
#include "niclab/net/pcapng_writer.hpp"

namespace niclab::net {

// What the payloads are, so the dissector knows how to read them (frame byte 2).
enum class PayloadFormat : uint8_t {
    raw = 0,      // bytes the dissector shows as data
    seastar = 1,  // SeaStar 64-byte frames; a Portals message's first is its Portals header
    startx = 2,   // StarT-X messages on Arctic: two header words (the second JAM's), payload
    t9000 = 3,    // T9000 virtual-link packets and their acknowledgements
    dsnic = 4,    // DSNIC packets: CSP data with the protocol characters in message_id
};
const char* to_string(PayloadFormat f);
// The format of a system's packets by its registry name ("seastar", ...); raw otherwise.
PayloadFormat payload_format_of(std::string_view system);

struct CaptureSpec {
    std::string path;
    // A node's tap: its name ("node 3") and the network nodes (terminals) of its ports.
    struct NodeTap {
        std::string name;
        std::vector<NodeId> terminals;
    };
    std::vector<NodeTap> nodes;
    std::vector<LinkId> links;
    PayloadFormat format = PayloadFormat::raw;
    // The section header's opt_comment and shb_hardware: what was simulated.
    std::string comment;
    std::string hardware = "niclab simulated network";
    // How to name the NIC end of a cable (a network node); "node N" when empty. Systems
    // whose nodes have several ports name the terminal's node and port.
    std::function<std::string(NodeId)> terminal_name;
};

class Capture final : public PacketTap {
public:
    // Capture header layout version and size (traces/CAPTURE.md).
    static constexpr uint8_t kFrameVersion = 1;
    static constexpr std::size_t kFrameHeaderBytes = 10 + PacketHeader::kHeaderBytes;
    static constexpr uint8_t kFrameCorrupted = 0x01;  // frame flags: a flipped bit went on (link retry off)

    // Validates every tap (CaptureError naming it and what exists), then creates the
    // file (CaptureError naming the path) and attaches to the network, which must have
    // no other tap.
    Capture(Network& network, const CaptureSpec& spec);
    ~Capture() override;  // detaches and closes; a write error there is lost (see close())
    Capture(const Capture&) = delete;
    Capture& operator=(const Capture&) = delete;

    // Writes out what is buffered, so the file is readable up to now.
    void flush();
    // Detaches and closes the file; later calls do nothing. CaptureError if a write failed.
    void close();
    bool is_open() const { return writer_ && writer_->is_open(); }
    const std::string& path() const { return path_; }
    uint64_t packets() const { return packets_; }
    // Interface names in interface-id order ("node 0", "link 12").
    const std::vector<std::string>& interfaces() const { return interface_names_; }

    // "router 4 port 2 -> router 5 port 0"
    static std::string link_description(const Network& network, LinkId link,
                                        const std::function<std::string(NodeId)>& terminal_name = {});
    // The capture header and PacketHeader of one record, as written before its payload.
    static std::array<uint8_t, kFrameHeaderBytes> frame_header(const PacketHeader& h, PayloadFormat format, uint8_t vc,
                                                               uint8_t flags, uint32_t retries);

    void injected(LinkId link, Time at, const PacketHeader& header, std::span<const uint8_t> payload,
                  uint8_t vc) override;
    void transmitted(LinkId link, Time start, const PacketHeader& header, std::span<const uint8_t> payload, uint8_t vc,
                     const Transmission& t) override;
    void arrived(LinkId link, Time at, const PacketHeader& header, std::span<const uint8_t> payload,
                 bool corrupted) override;

private:
    struct Listener {
        uint32_t interface;
        uint32_t flags;  // epb_flags direction
    };
    void record(const Listener& l, Time at, const PacketHeader& h, std::span<const uint8_t> payload, uint8_t vc,
                bool corrupted, uint32_t retries);

    Network* network_;
    std::string path_;
    PayloadFormat format_;
    std::optional<PcapngWriter> writer_;
    std::vector<std::string> interface_names_;
    // Per link: the interfaces that record a packet injected onto it (a node's cable),
    // going onto it (a link tap), and arriving over it (a node's cable).
    std::vector<std::vector<Listener>> on_inject_;
    std::vector<std::vector<Listener>> on_transmit_;
    std::vector<std::vector<Listener>> on_arrival_;
    uint64_t packets_ = 0;
};

}  // namespace niclab::net
