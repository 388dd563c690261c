// The network alone under uniform random traffic at saturation, the experiment behind
// seed 003 §6.4 Fig 4 (the maximum throughput of a 512-terminal Clos of C104s against
// packet size). Every terminal always has a packet ready, for a destination drawn
// uniformly from the others, and injects it as soon as its cable takes it. With
// ack_every = n a receiver answers every n-th data packet of each sender with an empty
// acknowledgement, which goes out before its own data: a protocol's acknowledgements
// are part of its transmission overhead (§6.4), as its protocol_bytes per packet are.
// dispatch_ns is the traffic source's own time per packet: after injecting one it
// offers the next no sooner (the Macramé traffic nodes behind the seed's figure took
// about 650 ns: Haas et al., Macramé, HPCN 1997, on packet overhead).
//
// Only the system's network is built (its parameters and topology from the spec), not
// its NICs and hosts: the question is what the network can carry, not what a NIC can
// feed it. Per packet size, a fresh network runs warmup_us of traffic, then measure_us
// in which the data payload delivered is counted and its bytes checked. Columns: the
// payload size, the data throughput per terminal, that as a fraction of the link's
// raw byte rate (characters per second on a DS link), the mean latency of the data
// packets delivered in the window (injection to delivery), and the acknowledgements
// delivered per data packet.
#include <algorithm>
#include <deque>
#include <memory>
#include <string>

#include "niclab/exp/programs.hpp"
#include "niclab/net/network.hpp"
#include "niclab/sim/random.hpp"
#include "niclab/system/system.hpp"

namespace niclab::exp {

namespace {

constexpr uint32_t kAckFlag = 0x8000'0000u;  // message ids of acknowledgements

uint8_t pattern(net::NodeId src, uint32_t id, uint32_t i) { return uint8_t(src * 131 + id * 7 + i * 13); }

struct Window {
    bool open = false;
    uint64_t data_packets = 0, data_bytes = 0, acks = 0, bad_bytes = 0;
    double latency_ns = 0;
};

class Terminal final : public net::NetworkEndpoint {
public:
    Terminal(net::Network& net, net::NodeId me, uint32_t size, uint32_t ack_every, Time dispatch, uint64_t seed,
             Window& w, std::vector<std::vector<Time>>& sent_at)
        : net_(net), me_(me), size_(size), ack_every_(ack_every), dispatch_(dispatch),
          random_(seed, "net_throughput." + std::to_string(me)),
          window_(w), sent_at_(sent_at), received_(net.nodes(), 0), data_(size) {
        net.attach(me, this);
    }

    bool deliver(const net::PacketView& p) override {
        if (p.message_id & kAckFlag) {
            if (window_.open) ++window_.acks;
            return true;
        }
        if (window_.open) {
            ++window_.data_packets;
            window_.data_bytes += p.length;
            window_.latency_ns += (net_.kernel().now() - sent_at_[p.src][p.message_id]).as_ns();
            for (uint32_t i = 0; i < p.length; ++i) window_.bad_bytes += p.payload[i] != pattern(p.src, p.message_id, i);
        }
        if (ack_every_ && ++received_[p.src] % ack_every_ == 0) acks_.push_back(p.src);
        pump();
        return true;
    }
    void injection_ready() override { pump(); }

    // Inject until the cable refuses: acknowledgements first, then data forever, one
    // data packet per dispatch time.
    void pump() {
        for (;;) {
            const Time now = net_.kernel().now();
            net::PacketHeader h;
            h.src = me_;
            h.head = h.tail = true;
            if (!acks_.empty()) {
                h.dst = acks_.front();
                h.message_id = kAckFlag | next_ack_;
                if (!net_.inject(me_, net::PacketView(h, {}))) return;
                acks_.pop_front();
                ++next_ack_;
                continue;
            }
            if (now < next_data_) {
                if (!wake_pending_) {
                    wake_pending_ = true;
                    net_.kernel().schedule_at(next_data_, [this] {
                        wake_pending_ = false;
                        pump();
                    });
                }
                return;
            }
            if (dst_ == kNone) {
                dst_ = net::NodeId(random_.below(net_.nodes() - 1));
                if (dst_ >= me_) ++dst_;
            }
            h.dst = dst_;
            h.message_id = next_id_;
            h.length = uint16_t(size_);
            for (uint32_t i = 0; i < size_; ++i) data_[i] = pattern(me_, next_id_, i);
            sent_at_[me_].push_back(now);
            if (!net_.inject(me_, net::PacketView(h, data_))) {
                sent_at_[me_].pop_back();
                return;
            }
            ++next_id_;
            dst_ = kNone;
            next_data_ = now + dispatch_;
        }
    }

private:
    static constexpr net::NodeId kNone = UINT32_MAX;
    net::Network& net_;
    net::NodeId me_;
    uint32_t size_, ack_every_;
    Time dispatch_;
    Time next_data_{};
    bool wake_pending_ = false;
    sim::Random random_;
    Window& window_;
    std::vector<std::vector<Time>>& sent_at_;
    std::vector<uint32_t> received_;  // data packets per sender
    std::deque<net::NodeId> acks_;
    std::vector<uint8_t> data_;
    net::NodeId dst_ = kNone;
    uint32_t next_id_ = 0, next_ack_ = 0;
};

// The link's raw byte rate: characters per second on a character-coded link.
double raw_bytes_per_s(const net::NetworkParams& np) {
    const auto& l = np.link;
    if (l.wire_bits_per_s) return double(l.wire_bits_per_s) / l.token_bits;
    if (l.wire_bytes_per_s) return double(l.wire_bytes_per_s);
    return double(l.payload_bytes_per_s) * (np.max_payload + l.overhead_bytes) / np.max_payload;
}

}  // namespace

Result run_net_throughput(const system::SystemSpec& spec, const nlohmann::json& options, const Observe& observer) {
    Options o("net_throughput", options);
    std::vector<uint64_t> sizes = o.unsigned_list("sizes");
    const double warmup_us = o.number("warmup_us", 200);
    const double measure_us = o.number("measure_us", 1000);
    const uint64_t ack_every = o.unsigned_int("ack_every", 0);
    const uint64_t protocol_bytes = o.unsigned_int("protocol_bytes", 0);
    const double dispatch_ns = o.number("dispatch_ns", 0);
    const std::string routing = o.text("routing", "preset", {"preset", "table", "adaptive"});
    o.reject_unknown();
    if (spec.nodes < 2) throw ExperimentError("net_throughput: needs a network: 'nodes' of at least 2");
    if (!(warmup_us >= 0 && warmup_us <= 1e6)) throw ExperimentError("net_throughput: option 'warmup_us' must be 0..1e6");
    if (!(measure_us > 0 && measure_us <= 1e6)) throw ExperimentError("net_throughput: option 'measure_us' must be above 0, at most 1e6");
    if (ack_every > 1'000'000) throw ExperimentError("net_throughput: option 'ack_every' must be 0 (none) .. 1e6");
    if (!(dispatch_ns >= 0 && dispatch_ns <= 1e9)) throw ExperimentError("net_throughput: option 'dispatch_ns' must be 0..1e9");
    if (protocol_bytes > 4096) throw ExperimentError("net_throughput: option 'protocol_bytes' above 4096");
    // It builds a bare network per packet size: no NICs, hosts or system to observe.
    for (const auto& [asked, what] : {std::pair{observer.trace, "trace"}, {observer.counters, "counters"}, {observer.breakdown, "breakdown"}})
        if (asked)
            throw ExperimentError(std::string("net_throughput: ") + what +
                                  ": it runs the network alone, a fresh bare network per packet size, with no NICs or "
                                  "hosts to observe");

    const system::Preset preset = system::resolved_preset(spec);
    const system::SystemModel& model = preset.model();
    net::NetworkParams np = model.network_params(preset);
    np.seed = spec.seed;
    np.link.overhead_bytes += uint32_t(protocol_bytes);
    if (routing != "preset") np.adaptive_up_routing = routing == "adaptive";
    const net::TopologySpec topology = spec.topology_spec(model.default_topology(spec.nodes));
    if (sizes.empty())
        for (uint64_t s : {8, 16, 28, 32, 64, 128, 256, 512, 1024, 2048, 4096})
            if (s <= np.max_payload) sizes.push_back(s);
    for (uint64_t s : sizes)
        if (s == 0 || s > np.max_payload)
            throw ExperimentError("net_throughput: option 'sizes' holds " + std::to_string(s) +
                                  ": a packet carries 1.." + std::to_string(np.max_payload) + " payload bytes on system '" +
                                  model.name() + "' (net.max_payload)");

    Result result("net_throughput", {{"size", "B"},
                                     {"throughput_mb_s", "MB/s"},
                                     {"fraction", ""},
                                     {"latency_us", "us"},
                                     {"acks_per_packet", ""}});
    result.params = o.used();
    result.planned = sizes.size();
    result.seed = spec.seed;
    result.system = spec.to_json();
    result.system["preset"] = preset.name();
    result.system["system"] = preset.system();
    result.system["parameters"] = preset.values_json();
    result.system["hardware"] = preset.parts();

    for (uint64_t size : sizes) {
        sim::Kernel kernel;
        kernel.set_cancel(observer.cancel);
        net::Network net(kernel, topology, np);
        Window window;
        std::vector<std::vector<Time>> sent_at(net.nodes());
        std::vector<std::unique_ptr<Terminal>> terminals;
        for (net::NodeId n = 0; n < net.nodes(); ++n)
            terminals.push_back(std::make_unique<Terminal>(net, n, uint32_t(size), uint32_t(ack_every),
                                                           Time::ps(int64_t(dispatch_ns * 1000)), spec.seed, window,
                                                           sent_at));
        for (auto& t : terminals) t->pump();
        const Time start = Time::ps(int64_t(warmup_us * 1e6));
        const Time measure = Time::ps(int64_t(measure_us * 1e6));
        kernel.run_until(start);
        window.open = true;
        kernel.run_until(start + measure);
        if (window.bad_bytes)
            throw ExperimentError("net_throughput: " + std::to_string(window.bad_bytes) +
                                  " payload bytes arrived changed at packet size " + std::to_string(size));
        const double per_terminal = double(window.data_bytes) / measure.as_us() / net.nodes();  // MB/s
        const double packets = double(std::max<uint64_t>(1, window.data_packets));
        result.add_row({double(size), per_terminal, per_terminal * 1e6 / raw_bytes_per_s(np),
                        window.latency_ns / packets / 1000.0, double(window.acks) / packets});
        if (observer.on_point && !observer.on_point(result)) {
            result.stopped = true;
            break;
        }
    }
    return result;
}

}  // namespace niclab::exp
