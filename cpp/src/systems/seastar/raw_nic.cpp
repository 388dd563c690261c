#include "niclab/systems/seastar/raw_nic.hpp"

#include <array>

#include "niclab/fw/mailbox.h"
#include "niclab/fw/raw_msg.h"

namespace niclab::seastar {

namespace {
// The mailbox of the loaded firmware, initialised; niclab::Error otherwise.
uint32_t mailbox_of(const nic::EmbeddedNic& nic) {
    uint32_t mailbox = 0;
    if (!nic.image() || !nic.image()->find_symbol(NICLAB_MAILBOX_SYMBOL, mailbox))
        throw Error("node " + std::to_string(nic.node_id()) + ": the loaded firmware has no mailbox (symbol " +
                    NICLAB_MAILBOX_SYMBOL + ")");
    if (nic.peek32(mailbox) != NICLAB_MAILBOX_MAGIC)
        throw Error("node " + std::to_string(nic.node_id()) + ": mailbox not initialised by the firmware");
    return mailbox;
}
}  // namespace

RawNic::RawNic(SeaStar& seastar, host::HostCpu& cpu)
    : nic_(seastar.nic()), cpu_(cpu), bus_(seastar.bus()), commands_(nic_, mailbox_of(nic_)), mailbox_(commands_.address()) {
    res_head_ = read32(mailbox_ + NICLAB_MAILBOX_RES_HEAD);
    irq_handler_ = nic_.control().add_host_interrupt_handler([this] {
        cpu_.raise_interrupt([this](host::InterruptContext& ictx) { on_interrupt(ictx); });
    });
}

RawNic::~RawNic() { nic_.control().remove_host_interrupt_handler(irq_handler_); }

void RawNic::post_command(host::ProcessContext& ctx, const uint32_t (&words)[8]) {
    while (commands_.looks_full()) {  // refresh the cached head: a round trip
        ctx.compute(bus_.pio_read(ctx.now()));
        if (!commands_.refresh_head()) ctx.sleep_for(Time::us(1));
    }
    ctx.compute(bus_.params().pio_write * 3);  // the command (write-combined), the tail, the doorbell
    bus_.pio_write(ctx.now(), [this, w = std::to_array(words)] { commands_.push(w); });
}

void RawNic::send(host::ProcessContext& ctx, uint32_t dst, uint64_t addr, uint32_t length, uint32_t tag) {
    post_command(ctx, {RAW_CMD_SEND, tag, dst, uint32_t(addr), uint32_t(addr >> 32), length, 0, 0});
}

void RawNic::post_receive(host::ProcessContext& ctx, uint64_t addr, uint32_t max_length, uint32_t tag) {
    post_command(ctx, {RAW_CMD_RECV, tag, 0, uint32_t(addr), uint32_t(addr >> 32), max_length, 0, 0});
}

RawResult RawNic::wait(host::ProcessContext& ctx) {
    ctx.wait_for(arrived_, [this] { return !results_.empty(); });
    RawResult r = results_.front();
    results_.pop_front();
    return r;
}

void RawNic::on_interrupt(host::InterruptContext& ictx) {
    // The handler drains every result the firmware has posted (one interrupt may cover
    // several), reading NIC memory across HyperTransport.
    ++interrupts_;
    ictx.charge(bus_.pio_read(ictx.now() + ictx.charged()));
    uint32_t tail = read32(mailbox_ + NICLAB_MAILBOX_RES_TAIL);
    while (res_head_ != tail) {
        uint32_t slot = mailbox_ + NICLAB_MAILBOX_RES + res_head_ * NICLAB_MAILBOX_WORDS * 4;
        ictx.charge(bus_.pio_read(ictx.now() + ictx.charged()));  // one cache-line read brings the whole result
        RawResult r{read32(slot + 4 * RAW_RES_OP), read32(slot + 4 * RAW_RES_TAG), read32(slot + 4 * RAW_RES_STATUS),
                    read32(slot + 4 * RAW_RES_BYTES), read32(slot + 4 * RAW_RES_SRC), ictx.now()};
        results_.push_back(r);
        res_head_ = (res_head_ + 1) % NICLAB_MAILBOX_ENTRIES;
    }
    ictx.charge(bus_.params().pio_write);
    bus_.pio_write(ictx.now() + ictx.charged(),
                   [this, head = res_head_] { nic_.poke32(mailbox_ + NICLAB_MAILBOX_RES_HEAD, head); });
    arrived_.notify_all();
}

}  // namespace niclab::seastar
