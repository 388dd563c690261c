// The DSNIC driver's interrupt handler (driver.hpp; seed 003 §8.3 L670-672): one event
// per step, each step charged its PIO accesses and driver work, then the board is
// checked again (a status read); at most events_per_interrupt events per interrupt.
#include <algorithm>

#include "niclab/systems/dsnic/driver.hpp"

namespace niclab::dsnic {

void Driver::interrupt(host::InterruptContext& ic) {
    board_.s5933().begin_service();
    ++counters_.interrupts;
    events_now_ = packets_now_ = 0;
    // Acknowledge the interrupt: write the S5933's interrupt control/status register.
    ic.charge(store_cost_);
    check(ic);
}

// The loop's check for events is itself a PIO read of the board's status (the S5933's
// interrupt status and the FIFO flags); what it finds is the board as it is when that
// read is done.
void Driver::check(host::InterruptContext& ic) {
    ic.charge(read_cost_);
    ic.continue_with([this](host::InterruptContext& c) { step(c); });
}

void Driver::step(host::InterruptContext& ic) {
    const Event e = events_now_ < p_.events_per_interrupt ? next_event() : Event::none;
    if (e == Event::none) {
        counters_.max_packets_per_interrupt = std::max<uint64_t>(counters_.max_packets_per_interrupt, packets_now_);
        board_.s5933().end_service();
        // Work waiting for FIFO room asks the board for one more event when there is.
        if ((sendable() && !board_.tx_busy()) || (control_due() && !board_.ackfifo_room())) board_.want_room();
        if (next_event() != Event::none) {  // the cap: the line stays asserted
            ++counters_.capped;
            board_.s5933().request_interrupt();
        }
        return;
    }
    ++events_now_;
    ++counters_.events;
    ic.charge(cost(e));
    ic.continue_with([this, e](host::InterruptContext& c) {
        apply(e);
        check(c);
    });
}

Driver::Event Driver::next_event() const {
    if (board_.rx_done()) return Event::rx_done;
    if (board_.tx_done()) return Event::tx_done;
    if (!board_.rx_busy() && board_.mailbox_full()) return Event::header;
    if (control_due() && board_.ackfifo_room()) return Event::control;
    if (Channel* ch = sendable(); ch && !board_.tx_busy()) {
        for (const auto& s : ch->sends)
            if (!(s.started && s.next == s.packets)) return board_.outfifo_room(packet_length(s, s.next)) ? Event::tx_start : Event::none;
    }
    return Event::none;
}

Time Driver::cost(Event e) const {
    switch (e) {
    case Event::header:  // the mailbox (header, length), then the receive DMA's registers
        return p_.event_work + read_cost_ * p_.header_reads + store_cost_ * p_.dma_setup_stores;
    case Event::tx_start:  // protocol characters and routing header into the outfifo, then the DMA
        return p_.event_work + store_cost_ * (1 + p_.dma_setup_stores);
    case Event::control:
        return p_.event_work + store_cost_ * p_.ack_stores;
    case Event::rx_done:  // the packet is in: its length, counted at the end-of-packet, from the mailbox
        return p_.event_work + read_cost_ * p_.length_reads;
    case Event::tx_done:
        return p_.event_work;
    case Event::none:
        break;
    }
    return Time{};
}

void Driver::apply(Event e) {
    switch (e) {
    case Event::rx_done:
        board_.take_rx_done();
        ++packets_now_;
        ++counters_.packets;
        on_rx_done();
        return;
    case Event::tx_done:
        board_.take_tx_done();
        ++packets_now_;
        ++counters_.packets;
        return;
    case Event::header:
        if (board_.rx_busy() || !board_.mailbox_full()) return;
        on_header(board_.mailbox_read());
        return;
    case Event::control:
        if (Channel* ch = control_due(); ch && board_.ackfifo_room()) send_control(*ch);
        return;
    case Event::tx_start:
        if (Channel* ch = sendable(); ch && !board_.tx_busy()) {
            for (const auto& s : ch->sends)
                if (!(s.started && s.next == s.packets)) {
                    if (board_.outfifo_room(packet_length(s, s.next))) start_tx(*ch);
                    break;
                }
        }
        return;
    case Event::none:
        return;
    }
}

}  // namespace niclab::dsnic
