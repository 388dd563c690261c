#pragma once
// The host side of a firmware mailbox's command FIFO (fw/mailbox.h, seed 000 §4.1):
// the host writes a command into NIC memory with programmed I/O, advances the tail and
// rings the doorbell. It keeps write-through copies of the indices (seed 000 §5.3): its
// own tail, and the firmware's head as last read, which it reads again only when the
// FIFO looks full. Every host driver of mailbox firmware (RawNic, the SeaStar NAL)
// posts through this; the drivers charge the PIO time, because when and how they wait
// for room (a blocking process, an interrupt handler's outbox) is theirs.
#include <cstdint>
#include <span>

#include "niclab/nic/embedded_nic.hpp"

namespace niclab::nic {

class MailboxProducer {
public:
    // `mailbox`: the address of the firmware's struct niclab_mailbox (its ELF symbol).
    MailboxProducer(EmbeddedNic& nic, uint32_t mailbox);

    uint32_t address() const { return mailbox_; }
    // Full by the cached copy of the firmware's head: no NIC access.
    bool looks_full() const { return next(tail_) == head_; }
    // Reads the firmware's head across the bus (the caller charges the read); true if
    // there is room now.
    bool refresh_head();
    // Writes the command (NICLAB_MAILBOX_WORDS words), the tail and the doorbell.
    // The caller checked for room.
    void push(std::span<const uint32_t> words);

private:
    static uint32_t next(uint32_t i);

    EmbeddedNic& nic_;
    uint32_t mailbox_;
    uint32_t tail_ = 0;  // the host's own index
    uint32_t head_ = 0;  // the firmware's, as last read
};

}  // namespace niclab::nic
