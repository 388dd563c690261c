// The core's side of a debugger (debug_hooks.hpp). Nothing on the instruction fast
// path tests for a debugger: a breakpoint replaces its slot's handler in the
// decoded-instruction cache with op::debug_trap, watchpoints shrink the SRAM fast
// paths' bound (fast_sram_size_) to zero so every load and store reaches load_slow or
// store_slow, which check them, and the run loop asks for a debugger once per burst. A stop that happens
// inside a burst ends the burst; the run loop then calls the listener, which blocks.
#include <algorithm>

#include "handlers.hpp"
#include "niclab/core/cpu.hpp"

namespace niclab::core {

void Cpu::attach_debugger(DebugListener* listener) {
    if (!listener) {
        for (uint32_t w : breakpoints_) forget_decode(w * 4);
        breakpoints_.clear();
        watches_.clear();
        fast_sram_size_ = sram_.size;
        debug_pending_.reset();
        debug_step_ = debug_one_insn_ = debug_skip_ = false;
        skip_pc_ = UINT32_MAX;
    }
    debug_ = listener;
    stop_burst();  // the run loop looks for the debugger between bursts
}

bool Cpu::debug_sram_offset(uint32_t address, uint32_t& off) const {
    off = address - sram_.cached_base;
    if (off < sram_.size) return true;
    off = address - sram_.uncached_base;
    return off < sram_.size;
}

bool Cpu::breakpoint_at(uint32_t sram_word) const {
    return std::find(breakpoints_.begin(), breakpoints_.end(), sram_word) != breakpoints_.end();
}

bool Cpu::set_breakpoint(uint32_t address, bool on) {
    uint32_t off;
    if ((address & 3) || !debug_sram_offset(address, off)) return false;
    uint32_t word = off / 4;
    auto it = std::find(breakpoints_.begin(), breakpoints_.end(), word);
    if (on && it == breakpoints_.end()) breakpoints_.push_back(word);
    if (!on && it != breakpoints_.end()) breakpoints_.erase(it);
    // Re-arm the slot: decoding it again installs (or leaves out) the debug trap, and
    // charges the same cost, so a breakpoint never changes timing.
    forget_decode(word * 4);
    return true;
}

bool Cpu::set_watchpoint(uint32_t address, uint32_t length, WatchKind kind, bool on) {
    uint32_t off;
    if (length == 0 || !debug_sram_offset(address, off) || uint64_t(off) + length > sram_.size) return false;
    auto same = [&](const Watch& w) { return w.address == address && w.length == length && w.kind == kind; };
    if (on) {
        if (std::none_of(watches_.begin(), watches_.end(), same)) watches_.push_back({address, off, length, kind});
    } else {
        watches_.erase(std::remove_if(watches_.begin(), watches_.end(), same), watches_.end());
    }
    fast_sram_size_ = watches_.empty() ? sram_.size : 0;
    return true;
}

// ---------------------------------------------------------------- stops inside a burst

uint32_t Cpu::debug_trap(const Insn& in, uint32_t pc) {
    if (debug_skip_ || !debug_) {
        // Resuming from this breakpoint: execute the real instruction this once.
        Insn real = decode(current_insn_bits(), cfg_);
        return real.fn(*this, real, pc);
    }
    // Stop before it executes: take back what the loop charged for it.
    cycle_ -= in.cost;
    --instret_;
    debug_pending_ = DebugStop{DebugStop::Kind::Breakpoint, pc};
    stop_burst();
    return pc;
}

bool Cpu::watch_hit(uint32_t addr, uint32_t size, bool store) {
    uint32_t off;
    if (debug_skip_ || !debug_sram_offset(addr, off)) return false;
    for (const Watch& w : watches_) {
        bool kind_matches = w.kind == WatchKind::Access || (w.kind == WatchKind::Write) == store;
        if (!kind_matches || off >= w.offset + w.length || off + size <= w.offset) continue;
        // GDB (RISC-V: non-steppable watchpoints) expects the stop before the access;
        // it steps over it itself and compares the old and new values.
        // It does not execute now: take back what the loop charged for it (its slot's cost).
        cycle_ -= fetch_page_[(pc_ - fetch_base_) >> 2].cost;
        --instret_;
        DebugStop why{DebugStop::Kind::Watch, pc_};
        why.watch_kind = w.kind;
        why.watch_address = w.address;
        debug_pending_ = why;
        stop_burst();
        return true;
    }
    return false;
}

// ---------------------------------------------------------------- the run loop's side

uint64_t Cpu::debug_burst_limit(uint64_t limit) {
    // A step, or the first instruction after a stop at a breakpoint or watchpoint
    // (which must be let through once), is a burst of exactly one instruction.
    debug_skip_ = pc_ == skip_pc_;
    debug_one_insn_ = debug_step_ || debug_skip_;
    return debug_one_insn_ ? std::min(limit, cycle_ + 1) : limit;
}

void Cpu::debug_after_burst() {
    bool was_one_insn = debug_one_insn_;
    debug_one_insn_ = debug_skip_ = false;
    if (was_one_insn) skip_pc_ = UINT32_MAX;
    if (debug_pending_) {
        DebugStop why = *debug_pending_;
        debug_pending_.reset();
        debug_stop(why);
    } else if (was_one_insn && debug_step_) {
        debug_stop(DebugStop{DebugStop::Kind::Step, pc_});
    } else if ((++debug_polls_ & 63) == 0 && debug_->poll()) {
        debug_stop(DebugStop{DebugStop::Kind::Interrupt, pc_});
    }
}

void Cpu::debug_stop(const DebugStop& why) {
    debug_step_ = false;
    Resume how = debug_->stopped(why);  // blocks: the cluster stands still meanwhile
    if (!debug_) return;                // the debugger detached
    if (why.kind == DebugStop::Kind::Breakpoint || why.kind == DebugStop::Kind::Watch) skip_pc_ = why.pc;
    debug_resume(how);
}

void Cpu::debug_resume(Resume how) {
    debug_step_ = how == Resume::Step;
    reset_fetch();  // the debugger may have moved the pc or rewritten code
}

}  // namespace niclab::core
