#include "niclab/nic/control_block.hpp"

#include <algorithm>

#include "niclab/fw/core_hw.h"

namespace niclab::nic {

ControlBlock::ControlBlock(sim::Kernel& kernel, core::Cpu& cpu, uint32_t node_id)
    : kernel_(kernel), cpu_(cpu), node_id_(node_id) {}

void ControlBlock::reset() {
    kernel_.cancel(timer_event_);
    timer_event_ = {};
    mtimecmp_ = UINT64_MAX;
    ext_pending_ = 0;
    console_.clear();
}

ControlBlock::HandlerId ControlBlock::add_host_interrupt_handler(HostInterruptHandler handler) {
    host_irq_handlers_.emplace_back(next_handler_id_, std::move(handler));
    return next_handler_id_++;
}

void ControlBlock::remove_host_interrupt_handler(HandlerId id) {
    std::erase_if(host_irq_handlers_, [id](const auto& h) { return h.first == id; });
}

void ControlBlock::raise_host_interrupt() {
    ++host_interrupts_;
    // By index on a copy of each handler: a handler may add or remove handlers.
    for (size_t i = 0; i < host_irq_handlers_.size(); ++i) {
        HostInterruptHandler h = host_irq_handlers_[i].second;
        h();
    }
}

uint64_t ControlBlock::mtime() const { return cpu_.cycle_at(kernel_.now()); }

void ControlBlock::arm_timer() {
    kernel_.cancel(timer_event_);
    timer_event_ = {};
    bool expired = mtime() >= mtimecmp_;
    cpu_.set_interrupt_pending(core::kMipMTIP, expired);
    // A compare value beyond any representable time (e.g. half-written 64-bit) never fires.
    bool representable = mtimecmp_ < cpu_.cycle_at(Time::max()) / 2;
    if (!expired && representable) {
        timer_event_ = kernel_.schedule_at(cpu_.time_at_cycle(mtimecmp_), [this] {
            timer_event_ = {};
            cpu_.set_interrupt_pending(core::kMipMTIP, true);
        });
    }
}

void ControlBlock::raise_external(uint32_t sources) {
    ext_pending_ |= sources;
    cpu_.set_interrupt_pending(core::kMipMEIP, ext_pending_ != 0);
}

bool ControlBlock::read(uint32_t offset, uint32_t& value) {
    switch (offset) {
        case NICLAB_CTRL_CACHE:
            value = (cpu_.icache_enabled() ? NICLAB_CACHE_I : 0) | (cpu_.dcache_enabled() ? NICLAB_CACHE_D : 0);
            return true;
        case NICLAB_CTRL_MTIME_LO: value = uint32_t(mtime()); return true;
        case NICLAB_CTRL_MTIME_HI: value = uint32_t(mtime() >> 32); return true;
        case NICLAB_CTRL_MTIMECMP_LO: value = uint32_t(mtimecmp_); return true;
        case NICLAB_CTRL_MTIMECMP_HI: value = uint32_t(mtimecmp_ >> 32); return true;
        case NICLAB_CTRL_NODE_ID: value = node_id_; return true;
        case NICLAB_CTRL_CLOCK_MHZ: value = uint32_t(cpu_.clock().mhz()); return true;
        case NICLAB_CTRL_EXT_IRQ_STATUS: value = ext_pending_; return true;
        case NICLAB_CTRL_CACHE_FLUSH: case NICLAB_CTRL_CONSOLE: case NICLAB_CTRL_HALT:
        case NICLAB_CTRL_WDT_KICK: case NICLAB_CTRL_HOST_IRQ: case NICLAB_CTRL_EXT_IRQ_RAISE:
        case NICLAB_CTRL_PANIC_PC: case NICLAB_CTRL_PANIC:
            value = 0;  // write-only registers read as zero
            return true;
    }
    return false;
}

bool ControlBlock::write(uint32_t offset, uint32_t value) {
    switch (offset) {
        case NICLAB_CTRL_CACHE:
            cpu_.set_cache_enable(value & NICLAB_CACHE_I, value & NICLAB_CACHE_D);
            return true;
        case NICLAB_CTRL_CACHE_FLUSH:
            if (value & NICLAB_CACHE_I) cpu_.invalidate_icache();
            if (value & NICLAB_CACHE_D) cpu_.flush_dcache();
            return true;
        case NICLAB_CTRL_CONSOLE: console_.push_back(char(value & 0xFF)); return true;
        case NICLAB_CTRL_HALT: cpu_.halt(value); return true;
        case NICLAB_CTRL_MTIMECMP_LO:
            mtimecmp_ = (mtimecmp_ & 0xFFFFFFFF00000000ull) | value;
            arm_timer();
            return true;
        case NICLAB_CTRL_MTIMECMP_HI:
            mtimecmp_ = (mtimecmp_ & 0xFFFFFFFFull) | (uint64_t(value) << 32);
            arm_timer();
            return true;
        case NICLAB_CTRL_WDT_KICK: return true;  // any store here is progress for the watchdog
        case NICLAB_CTRL_HOST_IRQ: raise_host_interrupt(); return true;
        case NICLAB_CTRL_EXT_IRQ_STATUS:  // write 1 to clear
            ext_pending_ &= ~value;
            cpu_.set_interrupt_pending(core::kMipMEIP, ext_pending_ != 0);
            return true;
        case NICLAB_CTRL_EXT_IRQ_RAISE: raise_external(value); return true;
        case NICLAB_CTRL_PANIC_PC: panic_pc_ = value; return true;
        case NICLAB_CTRL_PANIC: {
            core::FaultInfo f{core::FaultKind::Panic, panic_pc_, 0, value, cpu_.local_time()};
            f.message = read_string_ ? read_string_(value) : "(reason unreadable)";
            cpu_.stop_with_fault(f);
            return true;
        }
    }
    return false;  // read-only registers (MTIME, NODE_ID, CLOCK_MHZ) and holes
}

}  // namespace niclab::nic
