// Taps on a network's nodes and links, written to pcapng (capture.hpp).
#include "niclab/net/capture.hpp"

#include <algorithm>
#include <cstdio>

#include "niclab/sim/version.hpp"

namespace niclab::net {

namespace {
// The largest frame: capture header, PacketHeader and the largest payload.
constexpr uint32_t kSnapLength = uint32_t(Capture::kFrameHeaderBytes + PacketHeader::kMaxPayloadLimit);

std::string range_text(std::size_t n, const char* what) {
    return n == 0 ? std::string("no ") + what + "s" : std::string(what) + "s 0.." + std::to_string(n - 1);
}

std::string end_name(const Network& net, const Network::LinkEnd& e, const std::function<std::string(NodeId)>& terminal) {
    if (e.nic) return terminal ? terminal(e.id) : "node " + std::to_string(e.id);
    if (e.id >= net.topology().routers()) {  // an output-buffer stage: name the router port it serves
        const PortInfo& served = net.router(e.id).port(0);
        return "router " + std::to_string(served.peer) + " port " + std::to_string(served.peer_port) + " output buffer";
    }
    return "router " + std::to_string(e.id) + " port " + std::to_string(e.port);
}
}  // namespace

const char* to_string(PayloadFormat f) {
    switch (f) {
        case PayloadFormat::seastar: return "seastar";
        case PayloadFormat::startx: return "startx";
        case PayloadFormat::t9000: return "t9000";
        case PayloadFormat::dsnic: return "dsnic";
        case PayloadFormat::raw: break;
    }
    return "raw";
}

PayloadFormat payload_format_of(std::string_view system) {
    for (PayloadFormat f : {PayloadFormat::seastar, PayloadFormat::startx, PayloadFormat::t9000, PayloadFormat::dsnic})
        if (system == to_string(f)) return f;
    return PayloadFormat::raw;
}

std::string Capture::link_description(const Network& network, LinkId link,
                                      const std::function<std::string(NodeId)>& terminal_name) {
    return end_name(network, network.link_from(link), terminal_name) + " -> " +
           end_name(network, network.link_to(link), terminal_name);
}

Capture::Capture(Network& network, const CaptureSpec& spec)
    : network_(&network), path_(spec.path), format_(spec.format) {
    const std::size_t links = network.links().size();
    if (spec.nodes.empty() && spec.links.empty())
        throw CaptureError("capture '" + spec.path + "' has no taps: name at least one node or link", "", spec.path);
    // Every tap is checked before the file is created: bad input leaves no file behind.
    for (std::size_t i = 0; i < spec.nodes.size(); ++i) {
        const auto& tap = spec.nodes[i];
        for (std::size_t j = 0; j < i; ++j)
            if (spec.nodes[j].name == tap.name)
                throw CaptureError("capture: " + tap.name + " is tapped twice", tap.name, spec.path);
        for (NodeId t : tap.terminals)
            if (t >= network.nodes())
                throw CaptureError("capture: " + tap.name + " does not exist: the network has " +
                                       range_text(network.nodes(), "node"),
                                   tap.name, spec.path);
    }
    for (std::size_t i = 0; i < spec.links.size(); ++i) {
        const LinkId l = spec.links[i];
        const std::string name = "link " + std::to_string(l);
        if (l >= links)
            throw CaptureError("capture: " + name + " does not exist: the network has " + range_text(links, "link"),
                               name, spec.path);
        if (std::find(spec.links.begin(), spec.links.begin() + std::ptrdiff_t(i), l) != spec.links.begin() + std::ptrdiff_t(i))
            throw CaptureError("capture: " + name + " is tapped twice", name, spec.path);
    }
    if (network.tap())
        throw CaptureError("capture '" + spec.path + "': the network is already being captured (close that capture first)",
                           "", spec.path);

    writer_.emplace(spec.path, spec.hardware, "niclab " + std::string(simulator_version()), spec.comment);
    on_inject_.resize(links);
    on_transmit_.resize(links);
    on_arrival_.resize(links);
    for (const auto& tap : spec.nodes) {
        const uint32_t id = uint32_t(interface_names_.size());
        std::string description;
        for (NodeId t : tap.terminals) {
            const LinkId tx = network.injection_link(t), rx = network.ejection_link(t);
            description += std::string(description.empty() ? "" : "; ") + "sends on link " + std::to_string(tx) + " (" +
                           link_description(network, tx, spec.terminal_name) + "), receives on link " +
                           std::to_string(rx) + " (" + link_description(network, rx, spec.terminal_name) + ")";
            on_inject_[tx].push_back({id, PcapngWriter::kFlagOutbound});
            on_arrival_[rx].push_back({id, PcapngWriter::kFlagInbound});
        }
        writer_->add_interface(PcapngWriter::kLinkTypeUser0, kSnapLength, tap.name, description);
        interface_names_.push_back(tap.name);
    }
    for (LinkId l : spec.links) {
        const uint32_t id = uint32_t(interface_names_.size());
        const std::string name = "link " + std::to_string(l);
        writer_->add_interface(PcapngWriter::kLinkTypeUser0, kSnapLength, name,
                               link_description(network, l, spec.terminal_name));
        on_transmit_[l].push_back({id, 0});
        interface_names_.push_back(name);
    }
    network.set_tap(this);
}

Capture::~Capture() {
    try {
        close();
    } catch (const CaptureError&) {
    }
}

void Capture::flush() {
    if (writer_) writer_->flush();
}

void Capture::close() {
    if (network_ && network_->tap() == this) network_->set_tap(nullptr);
    network_ = nullptr;
    if (writer_) writer_->close();
}

std::array<uint8_t, Capture::kFrameHeaderBytes> Capture::frame_header(const PacketHeader& h, PayloadFormat format,
                                                                      uint8_t vc, uint8_t flags, uint32_t retries) {
    std::array<uint8_t, kFrameHeaderBytes> f{};
    f[0] = kFrameVersion;
    f[1] = uint8_t(kFrameHeaderBytes);
    f[2] = uint8_t(format);
    f[3] = vc;
    f[4] = flags;
    f[5] = uint8_t(std::min<uint32_t>(retries, 255));
    // f[6..7] reserved, zero
    f[8] = uint8_t(h.link_crc);
    f[9] = uint8_t(h.link_crc >> 8);
    const auto hb = header_bytes(h);
    std::copy(hb.begin(), hb.end(), f.begin() + 10);
    return f;
}

void Capture::record(const Listener& l, Time at, const PacketHeader& h, std::span<const uint8_t> payload, uint8_t vc,
                     bool corrupted, uint32_t retries) {
    const auto frame = frame_header(h, format_, vc, corrupted ? kFrameCorrupted : 0, retries);
    // A comment only on the rare packets a link did something to: Wireshark lists it.
    char comment[96];
    int n = 0;
    if (corrupted)
        n = std::snprintf(comment, sizeof comment, "corrupted: a bit flipped on a link with link-level retry off");
    else if (retries)
        n = std::snprintf(comment, sizeof comment, "%u link-level retr%s before this good copy", retries,
                          retries == 1 ? "y" : "ies");
    writer_->write_packet(l.interface, uint64_t(at.ps() / 1000), {std::span<const uint8_t>(frame), payload},
                          l.flags | (corrupted ? PcapngWriter::kFlagCrcError : 0),
                          std::string_view(comment, n > 0 ? std::size_t(n) : 0));
    ++packets_;
}

void Capture::injected(LinkId link, Time at, const PacketHeader& header, std::span<const uint8_t> payload,
                       uint8_t vc) {
    for (const Listener& l : on_inject_[link]) record(l, at, header, payload, vc, false, 0);
}

void Capture::transmitted(LinkId link, Time start, const PacketHeader& header, std::span<const uint8_t> payload,
                          uint8_t vc, const Transmission& t) {
    for (const Listener& l : on_transmit_[link]) record(l, start, header, payload, vc, t.corrupted, t.retries);
}

void Capture::arrived(LinkId link, Time at, const PacketHeader& header, std::span<const uint8_t> payload,
                      bool corrupted) {
    // The NIC's end of the cable has one virtual channel per vnet.
    for (const Listener& l : on_arrival_[link]) record(l, at, header, payload, header.vnet, corrupted, 0);
}

}  // namespace niclab::net
