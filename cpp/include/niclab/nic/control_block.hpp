#pragma once
// The embedded core's control registers (NICLAB_CTRL_* in core_hw.h): cache control,
// the debug console, clean halt, the free-running cycle counter and its timer
// interrupt, the watchdog kick, the interrupt line to the host and external interrupt
// sources. Every embedded-core NIC has one; the firmware SDK's runtime depends on it.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "niclab/core/cpu.hpp"
#include "niclab/fw/core_hw.h"
#include "niclab/nic/memory_map.hpp"
#include "niclab/sim/kernel.hpp"

namespace niclab::nic {

class ControlBlock final : public RegisterBlock {
public:
    using HostInterruptHandler = std::function<void()>;
    using HandlerId = uint64_t;

    ControlBlock(sim::Kernel& kernel, core::Cpu& cpu, uint32_t node_id);

    bool read(uint32_t offset, uint32_t& value) override;
    bool write(uint32_t offset, uint32_t value) override;
    // All but the cycle counter, which moves with time.
    bool pure_read(uint32_t offset) const override {
        return offset != NICLAB_CTRL_MTIME_LO && offset != NICLAB_CTRL_MTIME_HI;
    }
    void reset() override;  // at firmware (re)load

    // Devices and the host raise external interrupt sources (mip.MEIP while any is pending).
    void raise_external(uint32_t sources);

    const std::string& console() const { return console_; }
    void clear_console() { console_.clear(); }
    uint64_t host_interrupts() const { return host_interrupts_; }
    // The host interrupt line is shared: every driver on the node that listens to the
    // NIC adds its handler, and each raise calls all of them in the order added (each
    // driver decides from its own structures whether there is work for it). The id
    // removes the handler again; removing an unknown id does nothing.
    HandlerId add_host_interrupt_handler(HostInterruptHandler handler);
    void remove_host_interrupt_handler(HandlerId id);
    size_t host_interrupt_handlers() const { return host_irq_handlers_.size(); }
    // How a panic's reason (an SRAM address) becomes text; the NIC owns the SRAM.
    void set_string_reader(std::function<std::string(uint32_t)> read) { read_string_ = std::move(read); }

private:
    void arm_timer();
    uint64_t mtime() const;
    void raise_host_interrupt();

    sim::Kernel& kernel_;
    core::Cpu& cpu_;
    uint32_t node_id_;
    uint64_t mtimecmp_ = UINT64_MAX;
    sim::EventId timer_event_;
    uint32_t ext_pending_ = 0;
    std::string console_;
    uint64_t host_interrupts_ = 0;
    std::vector<std::pair<HandlerId, HostInterruptHandler>> host_irq_handlers_;
    HandlerId next_handler_id_ = 1;
    std::function<std::string(uint32_t)> read_string_;
    uint32_t panic_pc_ = 0;
};

}  // namespace niclab::nic
