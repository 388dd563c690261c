#pragma once
// The NIC control registers (NICLAB_CTRL_* in hw.h): cache control, the debug
// console, clean halt, the free-running cycle counter and its timer interrupt,
// the watchdog kick, the interrupt line to the host and external interrupt sources.
#include <cstdint>
#include <functional>
#include <string>

#include "niclab/core/cpu.hpp"
#include "niclab/sim/kernel.hpp"

namespace niclab::nic {

class ControlBlock {
public:
    ControlBlock(sim::Kernel& kernel, core::Cpu& cpu, uint32_t node_id);

    bool read(uint32_t offset, uint32_t& value);
    bool write(uint32_t offset, uint32_t value);
    void reset();  // at firmware (re)load

    // Devices and the host raise external interrupt sources (mip.MEIP while any is pending).
    void raise_external(uint32_t sources);

    const std::string& console() const { return console_; }
    void clear_console() { console_.clear(); }
    uint64_t host_interrupts() const { return host_interrupts_; }
    void on_host_interrupt(std::function<void()> cb) { host_irq_cb_ = std::move(cb); }
    // How a panic's reason (an SRAM address) becomes text; the NIC owns the SRAM.
    void set_string_reader(std::function<std::string(uint32_t)> read) { read_string_ = std::move(read); }

private:
    void arm_timer();
    uint64_t mtime() const;

    sim::Kernel& kernel_;
    core::Cpu& cpu_;
    uint32_t node_id_;
    uint64_t mtimecmp_ = UINT64_MAX;
    sim::EventId timer_event_;
    uint32_t ext_pending_ = 0;
    std::string console_;
    uint64_t host_interrupts_ = 0;
    std::function<void()> host_irq_cb_;
    std::function<std::string(uint32_t)> read_string_;
    uint32_t panic_pc_ = 0;
};

}  // namespace niclab::nic
