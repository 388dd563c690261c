#pragma once
// Host driver for the raw_msg example firmware (firmware/examples/raw_msg.c): raw
// messages between nodes with no protocol above the DMA engines. A host process posts
// commands into the firmware's mailbox with programmed I/O across the SeaStar's
// HyperTransport link (each write and each read of NIC memory costs the process
// modelled time, and a write reaches the NIC when the bus completes it), rings the
// doorbell, and blocks until the firmware's interrupt delivers the result. It is the
// smallest complete user of the mailbox -> TX DMA -> network -> RX DMA -> host memory
// path, and the model for the Portals driver.
#include <cstdint>
#include <deque>

#include "niclab/host/condition.hpp"
#include "niclab/host/host_cpu.hpp"
#include "niclab/host/process.hpp"
#include "niclab/nic/embedded_nic.hpp"
#include "niclab/nic/mailbox_producer.hpp"
#include "niclab/systems/seastar/seastar_nic.hpp"

namespace niclab::seastar {

struct RawResult {
    uint32_t op = 0;      // RAW_RES_SENT or RAW_RES_RECEIVED (raw_msg.h)
    uint32_t tag = 0;
    uint32_t status = 0;  // NICLAB_DMA_*
    uint32_t bytes = 0;
    uint32_t src = 0;     // the sender, for receives
    Time when{};          // when the host saw it
};

class RawNic {
public:
    // Finds the firmware's mailbox (throws niclab::Error if the loaded firmware has
    // none) and adds its handler to the NIC's host interrupt line.
    RawNic(SeaStar& seastar, host::HostCpu& cpu);
    ~RawNic();
    RawNic(const RawNic&) = delete;
    RawNic& operator=(const RawNic&) = delete;

    // From a host process. Send `length` bytes at host address `addr` to node `dst`.
    void send(host::ProcessContext& ctx, uint32_t dst, uint64_t addr, uint32_t length, uint32_t tag);
    // Offer a buffer for the next message to arrive.
    void post_receive(host::ProcessContext& ctx, uint64_t addr, uint32_t max_length, uint32_t tag);
    // The next result, in the order the firmware posted them; blocks until there is one.
    RawResult wait(host::ProcessContext& ctx);

    uint64_t interrupts() const { return interrupts_; }

private:
    void post_command(host::ProcessContext& ctx, const uint32_t (&words)[8]);
    void on_interrupt(host::InterruptContext& ictx);
    uint32_t read32(uint32_t addr) const { return nic_.peek32(addr); }

    nic::EmbeddedNic& nic_;
    host::HostCpu& cpu_;
    bus::HyperTransport& bus_;  // PIO goes over it
    nic::MailboxProducer commands_;
    uint32_t mailbox_ = 0;
    uint32_t res_head_ = 0;
    nic::ControlBlock::HandlerId irq_handler_ = 0;
    std::deque<RawResult> results_;
    host::Condition arrived_;
    uint64_t interrupts_ = 0;
};

}  // namespace niclab::seastar
