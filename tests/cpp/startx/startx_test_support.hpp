#pragma once
// Two StarT-X nodes wired back to back through DirectPorts (a fixed wire latency, a
// few messages of buffering per virtual network, backpressure when the receiver
// refuses), and JAM-like PIO helpers for test processes.
#include <array>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "test_processes.hpp"
#include "niclab/host/host_cpu.hpp"
#include "niclab/host/host_memory.hpp"
#include "niclab/systems/startx/le_word.hpp"
#include "niclab/systems/startx/niu.hpp"

namespace niclab::startx::test {

inline constexpr uint64_t kNiuBase = 0x1'0000'0000;

class DirectPort final : public NetworkPort {
public:
    DirectPort(sim::Kernel& k, Time wire, uint32_t buffer = 4) : k_(k), wire_(wire), buffer_(buffer) {}
    void connect(DirectPort& peer) { peer_ = &peer; }
    void attach(PortListener& l) override { listener_ = &l; }
    bool can_inject(Priority v) const override {
        return peer_->held_[uint32_t(v)].size() + in_flight_[uint32_t(v)] < buffer_;
    }
    void inject(const WireMessage& m) override {
        WireMessage w = m;
        if (corrupt_next) {
            w.msg.words[w.msg.n_words - 1] ^= 1;
            corrupt_next = false;
        }
        injected.push_back(k_.now());
        const uint32_t v = uint32_t(w.header().priority);
        ++in_flight_[v];
        // The NIU paces at 160 MB/s; the whole message has arrived one serialization later.
        const Time ser = Time::ps(int64_t(w.link_bytes()) * 6250);  // 160 MB/s
        transit_.push_back(w);  // arrivals keep injection order (the NIU paces them)
        k_.schedule_in(ser + wire_, [this, v] {
            --in_flight_[v];
            peer_->held_[v].push_back(transit_.front());
            transit_.pop_front();
            peer_->try_deliver(v);
        });
    }
    void receive_space_freed(Priority v) override { try_deliver(uint32_t(v)); }

    bool corrupt_next = false;
    std::vector<Time> injected;

private:
    void try_deliver(uint32_t v) {
        while (!held_[v].empty() && listener_->offer(held_[v].front())) {
            held_[v].pop_front();
            peer_->listener_->injection_ready(Priority(v));
        }
    }
    sim::Kernel& k_;
    Time wire_;
    uint32_t buffer_;
    DirectPort* peer_ = nullptr;
    PortListener* listener_ = nullptr;
    std::array<std::deque<WireMessage>, kPriorities> held_;
    std::array<uint32_t, kPriorities> in_flight_{};
    std::deque<WireMessage> transit_;
};

struct Node {
    Node(sim::Kernel& k, NetworkPort& port, uint32_t id, bus::PciParams bp = {})
        : cpu(k), bus(k, cpu, memory, bp), niu(k, bus, port, [id] {
              NiuParams p;
              p.node_id = id;
              return p;
          }()) {
        bus.map(kNiuBase, niu.window_bytes(), niu);
    }
    uint64_t reg(Reg r) const { return kNiuBase + niu.reg_offset(r); }
    host::HostCpu cpu;
    host::HostMemory memory;
    bus::PciBus bus;
    Niu niu;
};

struct Pair {
    explicit Pair(bus::PciParams bp = {}) : a{k, pa, 0, bp}, b{k, pb, 1, bp} { pa.connect(pb); pb.connect(pa); }
    host::Process& spawn(Node& n, std::string name, host::Process::Body body) {
        return procs.spawn(n.cpu, std::move(name), std::move(body));
    }
    void run(Time until = Time::ms(20)) {
        k.run_until(until, true);
        procs.rethrow_failures();
    }
    sim::Kernel k;
    DirectPort pa{k, Time::ns(300)}, pb{k, Time::ns(300)};
    Node a, b;
    niclab::test::TestProcesses procs;  // die before the CPUs
};

inline Message make_msg(uint16_t dest, Priority p, uint32_t payload_words, uint32_t seed) {
    std::array<uint32_t, kMaxPayloadWords> pl{};
    for (uint32_t i = 0; i < payload_words; ++i) pl[i] = seed * 0x01000193u + i * 0x9e3779b9u;
    Header h;
    h.down_route = dest;
    h.priority = p;
    return Message::make(h, seed, std::span<const uint32_t>(pl.data(), payload_words));
}

// PIO send with 8-byte stores (std) to consecutive aliased addresses (or all to the
// register's first word when `same_address`), a 4-byte store for an odd last word.
inline void pio_send(host::ProcessContext& ctx, Node& n, const Message& m, bool same_address = false) {
    std::array<uint8_t, kMaxBytes> bytes{};
    m.to_bytes(bytes);
    const uint64_t base = n.reg(Niu::tx_reg(m.header().priority));
    uint32_t off = 0;
    while (off < m.bytes()) {
        const uint32_t sz = m.bytes() - off >= 8 ? 8 : 4;
        const uint64_t addr = same_address ? base : base + off;
        n.bus.store(ctx, addr, std::span<const uint8_t>(bytes.data() + off, sz));
        off += sz;
    }
}

// 64-byte block store (stda) of a 64-byte message.
inline void pio_send64(host::ProcessContext& ctx, Node& n, const Message& m) {
    std::array<uint8_t, 64> bytes{};
    m.to_bytes(bytes);
    n.bus.store(ctx, n.reg(Niu::tx_reg(m.header().priority)), bytes);
}

inline Status read_status(host::ProcessContext& ctx, Node& n) {
    std::array<uint8_t, 4> w{};
    n.bus.load(ctx, n.reg(Reg::status), w);
    return Status::unpack(load_le32(w.data()));
}

inline uint32_t le(const uint8_t* b) { return load_le32(b); }

// Poll the status word until a message of priority p waits, then read it with ldd (and
// a final ld for an odd word).
inline Message pio_recv(host::ProcessContext& ctx, Node& n, Priority p) {
    while (read_status(ctx, n).rx_count[uint32_t(p)] == 0) ctx.compute(Time::ns(100));
    const uint64_t base = n.reg(Niu::rx_reg(p));
    std::array<uint8_t, 8> w{};
    n.bus.load(ctx, base, w);
    Message m;
    m.words[0] = le(w.data());
    m.words[1] = le(w.data() + 4);
    m.n_words = uint8_t(m.header().total_words());
    uint32_t i = 2;
    while (i < m.n_words) {
        const uint32_t sz = m.n_words - i >= 2 ? 8 : 4;
        n.bus.load(ctx, base + 4 * i, std::span<uint8_t>(w.data(), sz));
        m.words[i] = le(w.data());
        if (sz == 8) m.words[i + 1] = le(w.data() + 4);
        i += sz / 4;
    }
    return m;
}

// One 64-byte load (ldda) of a 64-byte message.
inline Message pio_recv64(host::ProcessContext& ctx, Node& n, Priority p) {
    while (read_status(ctx, n).rx_count[uint32_t(p)] == 0) ctx.compute(Time::ns(100));
    std::array<uint8_t, 64> w{};
    n.bus.load(ctx, n.reg(Niu::rx_reg(p)), w);
    Message m;
    for (uint32_t i = 0; i < 16; ++i) m.words[i] = le(w.data() + 4 * i);
    m.n_words = 16;
    return m;
}

inline bool same(const Message& x, const Message& y) {
    if (x.n_words != y.n_words) return false;
    for (uint32_t i = 0; i < x.n_words; ++i)
        if (x.words[i] != y.words[i]) return false;
    return true;
}

}  // namespace niclab::startx::test
