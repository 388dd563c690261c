#include "niclab/nic/mailbox_producer.hpp"

#include <cassert>

#include "niclab/fw/core_hw.h"
#include "niclab/fw/mailbox.h"

namespace niclab::nic {

MailboxProducer::MailboxProducer(EmbeddedNic& nic, uint32_t mailbox)
    : nic_(nic),
      mailbox_(mailbox),
      tail_(nic.peek32(mailbox + NICLAB_MAILBOX_CMD_TAIL)),
      head_(nic.peek32(mailbox + NICLAB_MAILBOX_CMD_HEAD)) {}

uint32_t MailboxProducer::next(uint32_t i) { return (i + 1) % NICLAB_MAILBOX_ENTRIES; }

bool MailboxProducer::refresh_head() {
    head_ = nic_.peek32(mailbox_ + NICLAB_MAILBOX_CMD_HEAD);
    return !looks_full();
}

void MailboxProducer::push(std::span<const uint32_t> words) {
    assert(words.size() == NICLAB_MAILBOX_WORDS && !looks_full());
    uint32_t slot = mailbox_ + NICLAB_MAILBOX_CMD + tail_ * NICLAB_MAILBOX_WORDS * 4;
    for (uint32_t i = 0; i < NICLAB_MAILBOX_WORDS; ++i) nic_.poke32(slot + 4 * i, words[i]);
    tail_ = next(tail_);
    nic_.poke32(mailbox_ + NICLAB_MAILBOX_CMD_TAIL, tail_);
    nic_.control().raise_external(NICLAB_IRQ_DOORBELL);
}

}  // namespace niclab::nic
