// The DSNIC driver's system calls and protocol state (driver.hpp); the interrupt
// handler's loop is in driver_interrupt.cpp.
#include <algorithm>

#include "niclab/systems/dsnic/driver.hpp"

namespace niclab::dsnic {

namespace {
constexpr uint64_t kKernelBase = 0x100'0000'0000;
}

Driver::Driver(Board& board, host::HostCpu& cpu, const bus::PciParams& pci, const DriverParams& p, uint32_t node)
    : board_(board), cpu_(cpu), p_(p), node_(node), read_cost_(pci.read_stall(4)), store_cost_(pci.store_issue_cost) {
    board_.s5933().set_handler([this](host::InterruptContext& ic) { interrupt(ic); });
    board_.set_event([this] { board_.s5933().request_interrupt(); });
}

void Driver::fault(const std::string& what) const {
    throw DsnicError("node " + std::to_string(node_) + " (DSNIC driver): " + what);
}

Driver::Channel& Driver::channel_of(const MailboxEntry& m) {
    auto it = channels_.find({m.source, m.proto.vl});
    if (it == channels_.end()) {
        // The peer's side opened first: keep its credit for when this side opens.
        if (m.proto.kind != Kind::credit)
            fault(std::string(m.proto.is_data() ? "a data packet" : "an acknowledgement") + " from node " + std::to_string(m.source) +
                  " on virtual link " + std::to_string(m.proto.vl) + ", which is not open");
        auto& slot = channels_[{m.source, m.proto.vl}];
        slot = std::make_unique<Channel>();
        slot->vl = m.proto.vl;
        slot->peer = m.source;
        return *slot;
    }
    return *it->second;
}

Driver::Channel& Driver::open(host::ProcessContext& ctx, uint8_t vl, uint32_t peer, uint64_t rx_addr, uint64_t rx_capacity) {
    if (vl >= kVirtualLinks) fault("virtual link " + std::to_string(vl) + " (there are " + std::to_string(kVirtualLinks) + ")");
    if (auto it = channels_.find({peer, vl}); it != channels_.end() && it->second->opened)
        fault("virtual link " + std::to_string(vl) + " to node " + std::to_string(peer) + " opened twice");
    // The system call checks the C101 through passthru (one register read) and posts
    // the receive buffer (a credit).
    ++counters_.syscalls;
    ctx.syscall(p_.syscall_work + read_cost_ + kick_cost());
    if (!board_.c101().read_register(0)) fault("the DS link is not running (no network)");
    auto& slot = channels_[{peer, vl}];  // after the system call's cost: the handler may have added it
    if (!slot) slot = std::make_unique<Channel>();
    Channel* ch = slot.get();
    ch->vl = vl;
    ch->peer = peer;
    ch->opened = true;
    ch->rx_addr = rx_addr;
    // The channel's kernel buffer for buffered sends: locked kernel memory, one region
    // per (peer, virtual link) above the user addresses.
    ch->kernel_addr = kKernelBase + (uint64_t(peer) * kVirtualLinks + vl) * p_.async_buffer_bytes;
    const uint64_t packets = std::max<uint64_t>(1, (rx_capacity + p_.packet_bytes - 1) / p_.packet_bytes);
    ch->rx_capacity = packets * p_.packet_bytes;
    ch->arrived.assign(packets, false);
    ch->posted = true;
    ch->posts = 1;
    ch->credit_due = true;
    kick();
    return *ch;
}

void Driver::send(host::ProcessContext& ctx, Channel& ch, uint64_t addr, uint64_t bytes, uint32_t tag) {
    Channel::Send s;
    s.addr = addr;
    s.bytes = bytes;
    s.tag = tag;
    // Packets of the maximum size plus a last one of at most that size (L550); an empty
    // message is one empty last packet.
    s.packets = std::max<uint64_t>(1, (bytes + p_.packet_bytes - 1) / p_.packet_bytes);
    ++counters_.syscalls;
    ctx.syscall(p_.syscall_work + kick_cost());
    ch.sends.push_back(s);
    kick();
}

void Driver::bsend(host::ProcessContext& ctx, Channel& ch, uint64_t addr, uint64_t bytes, uint32_t tag) {
    if (bytes > p_.async_buffer_bytes)
        fault("a buffered send of " + std::to_string(bytes) + " B does not fit the channel's " + std::to_string(p_.async_buffer_bytes) +
              "-byte kernel buffer (dsnic.async_buffer_bytes)");
    // Room at the end of the buffer, or all of it once every buffered send is done.
    ++counters_.syscalls;
    ctx.syscall(p_.syscall_work + cost(Event::tx_start));
    ctx.wait_for(ch.changed, [&] { return ch.kernel_used + bytes <= p_.async_buffer_bytes || ch.buffered_pending == 0; });
    if (ch.kernel_used + bytes > p_.async_buffer_bytes) ch.kernel_used = 0;
    const uint64_t at = ch.kernel_addr + ch.kernel_used;
    // The copy into locked kernel memory: real bytes, at the host's copy bandwidth.
    bsend_copy_.resize(bytes);
    board_.memory().read(addr, bsend_copy_);
    ctx.copy(bytes);
    board_.memory().write(at, bsend_copy_);
    ch.kernel_used += bytes;
    ++ch.buffered_pending;
    Channel::Send s;
    s.addr = at;
    s.bytes = bytes;
    s.tag = tag;
    s.buffered = true;
    s.packets = std::max<uint64_t>(1, (bytes + p_.packet_bytes - 1) / p_.packet_bytes);
    ch.sends.push_back(s);
    kick();
}

void Driver::wait_sends(host::ProcessContext& ctx, Channel& ch) {
    if (ch.sends.empty()) return;
    ++counters_.syscalls;
    ctx.syscall(p_.syscall_work);
    ctx.wait_for(ch.changed, [&] { return ch.sends.empty(); });
}

Message Driver::recv(host::ProcessContext& ctx, Channel& ch) {
    ++counters_.syscalls;
    // The credit for the next message is written after the wait, charged here.
    ctx.syscall(p_.syscall_work + kick_cost());
    ctx.wait_for(ch.changed, [&] { return !ch.complete.empty(); });
    const Message m = ch.complete.front();
    ch.complete.pop_front();
    // Post the buffer again: a credit lets the sender start its next message.
    ch.posted = true;
    ++ch.posts;
    ch.credit_due = true;
    kick();
    return m;
}

std::size_t Driver::alt(host::ProcessContext& ctx, std::span<Channel* const> channels) {
    if (channels.empty()) fault("alt over no channels");
    ++counters_.syscalls;
    ctx.syscall(p_.syscall_work);
    auto ready = [&]() -> std::size_t {
        for (std::size_t i = 0; i < channels.size(); ++i)
            if (!channels[i]->complete.empty()) return i;
        return channels.size();
    };
    ctx.wait_for(any_message_, [&] { return ready() < channels.size(); });
    return ready();
}

bool Driver::probe(host::ProcessContext& ctx, Channel& ch) {
    ++counters_.syscalls;
    ctx.syscall(p_.syscall_work);
    return !ch.complete.empty();
}

uint32_t Driver::packet_length(const Channel::Send& s, uint64_t index) const {
    const uint64_t at = index * p_.packet_bytes;
    return uint32_t(std::min<uint64_t>(p_.packet_bytes, s.bytes - std::min(s.bytes, at)));
}

Driver::Channel* Driver::sendable() const {
    for (const auto& [key, ch] : channels_) {
        if (ch->sends.empty()) continue;
        // The first message not fully handed to the board.
        for (const auto& s : ch->sends) {
            if (s.started && s.next == s.packets) continue;
            if (!s.started && !seq_before(ch->started, ch->credits)) break;  // no credit yet
            if (ch->next_packet - ch->acked >= p_.window_packets) break;  // window full
            return ch.get();
        }
    }
    return nullptr;
}

Driver::Channel* Driver::control_due() const {
    for (const auto& [key, ch] : channels_)
        if (ch->ack_due || ch->credit_due) return ch.get();
    return nullptr;
}

void Driver::start_tx(Channel& ch) {
    for (auto& s : ch.sends) {
        if (s.started && s.next == s.packets) continue;
        if (!s.started) {
            s.started = true;
            s.first = ch.next_packet;
            ++ch.started;
        }
        const uint32_t len = packet_length(s, s.next);
        Protocol proto{s.next + 1 == s.packets ? Kind::last : Kind::data, ch.vl, uint16_t(ch.next_packet)};
        board_.start_tx_dma(proto, ch.peer, s.addr + s.next * p_.packet_bytes, len, s.tag);
        ++s.next;
        ++ch.next_packet;
        counters_.max_unacked = std::max(counters_.max_unacked, ch.next_packet - ch.acked);
        return;
    }
}

void Driver::send_control(Channel& ch) {
    if (ch.credit_due) {
        ch.credit_due = false;
        ++counters_.credits_sent;
        board_.push_control(Protocol{Kind::credit, ch.vl, ch.posts}, ch.peer);
    } else if (ch.ack_due) {
        ch.ack_due = false;
        ch.since_ack = 0;
        ++counters_.acks_sent;
        board_.push_control(Protocol{Kind::ack, ch.vl, uint16_t(ch.contiguous)}, ch.peer);
    }
}

void Driver::on_header(const MailboxEntry& m) {
    Channel& ch = channel_of(m);
    switch (m.proto.kind) {
    case Kind::ack:
        // Cumulative: every packet before the acknowledged one arrived.
        if (const uint16_t d = uint16_t(m.proto.seq - uint16_t(ch.acked)); d <= ch.next_packet - ch.acked) ch.acked += d;
        else fault("an acknowledgement for packets never sent");
        // Messages whose every packet is acknowledged are done: their buffers are free.
        while (!ch.sends.empty()) {
            const auto& s = ch.sends.front();
            if (!s.started || s.next != s.packets || ch.acked < s.first + s.packets) break;
            if (s.buffered && --ch.buffered_pending == 0) ch.kernel_used = 0;
            ch.sends.pop_front();
        }
        ch.changed.notify_all();
        return;
    case Kind::credit:
        if (seq_before(ch.credits, m.proto.seq)) ch.credits = m.proto.seq;
        return;
    default:
        break;
    }
    if (!ch.posted) fault("a data packet from node " + std::to_string(m.source) + " arrived with no receive buffer posted (no credit was given)");
    // Packets in flight are within a window of the contiguous point.
    const uint64_t index = ch.contiguous + uint16_t(m.proto.seq - uint16_t(ch.contiguous)) - ch.first;
    if (index >= ch.arrived.size() || ch.arrived[index])
        fault("data packet " + std::to_string(m.proto.seq) + " from node " + std::to_string(m.source) + " does not fit the " +
              std::to_string(ch.rx_capacity) + "-byte receive buffer");
    // The receive DMA goes straight into the user's buffer (zero copy, L598); flush's
    // padding lands in the rest of this packet's slot.
    if (ch.first + index != ch.contiguous) ++counters_.out_of_order;  // adaptive routing overtook (L554)
    rx_ = Rx{&ch, index, m.length, m.tag, m.proto.kind == Kind::last};
    board_.start_rx_dma(ch.rx_addr + index * p_.packet_bytes);
}

void Driver::on_rx_done() {
    Channel& ch = *rx_.ch;
    // The length came after the header (at the end-of-packet): only now can it be checked.
    if (!rx_.last && rx_.length != p_.packet_bytes)
        fault("a " + std::to_string(rx_.length) + "-byte packet that is not the last of its message");
    ch.arrived[rx_.index] = true;
    ++ch.received;
    if (rx_.last) {
        ch.total = rx_.index + 1;
        ch.bytes = rx_.index * p_.packet_bytes + rx_.length;
        ch.tag = rx_.tag;
    }
    while (ch.contiguous - ch.first < ch.arrived.size() && ch.arrived[ch.contiguous - ch.first]) ++ch.contiguous;
    if (++ch.since_ack >= p_.ack_every) ch.ack_due = true;
    if (ch.total && ch.received == ch.total) {
        ch.complete.push_back(Message{ch.bytes, ch.tag});
        ch.ack_due = true;
        ch.posted = false;
        ch.first += ch.total;
        ch.contiguous = ch.first;
        std::fill(ch.arrived.begin(), ch.arrived.end(), false);
        ch.received = ch.total = 0;
        ch.changed.notify_all();
        any_message_.notify_all();
    }
}

Time Driver::kick_cost() const {
    // One transmit start and one control packet at most, as estimated when the call
    // traps; kick() does what is still possible when the work is done.
    return cost(Event::tx_start) + cost(Event::control);
}

void Driver::kick() {
    if (board_.s5933().in_service()) return;  // the handler's loop will see it
    if (Channel* ch = control_due()) {
        if (board_.ackfifo_room()) send_control(*ch);
        else board_.want_room();
    }
    if (Channel* ch = sendable(); ch && !board_.tx_busy()) {
        const auto& s = ch->sends;
        for (const auto& m : s)
            if (!(m.started && m.next == m.packets)) {
                if (board_.outfifo_room(packet_length(m, m.next))) start_tx(*ch);
                else board_.want_room();
                break;
            }
    }
}

}  // namespace niclab::dsnic
