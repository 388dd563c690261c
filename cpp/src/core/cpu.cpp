#include "niclab/core/cpu.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "handlers.hpp"
#include "niclab/sim/activity.hpp"

namespace niclab::core {

namespace {
constexpr uint32_t kMstatusMIE = 1u << 3;
constexpr uint32_t kMstatusMPIE = 1u << 7;
constexpr uint32_t kMstatusMPP = 3u << 11;  // always machine mode
constexpr uint32_t kInterruptBit = 0x80000000u;
constexpr uint32_t kMisaRV32IM = (1u << 30) | (1u << 8) | (1u << 12);  // MXL=1, I, M

// An uncached SRAM access of a load's or store's 1, 2 or 4 bytes, each size a copy of its
// own: memcpy with the size known only at run time was a call into the library, about a
// fifth of the access's host instructions.
template <typename F>
void by_size(unsigned size, F&& copy) {
    if (size == 4) copy(std::integral_constant<unsigned, 4>{});
    else if (size == 2) copy(std::integral_constant<unsigned, 2>{});
    else copy(std::integral_constant<unsigned, 1>{});
}
}  // namespace

Cpu::Cpu(sim::Kernel& kernel, const CoreConfig& cfg, SramView sram, Bus& bus)
    : clock_(Clock::from_mhz(cfg.clock_mhz)), kernel_(kernel), watchdog_cycles_(cfg.watchdog_cycles), sram_(sram),
      fast_sram_size_(sram.size), cfg_(cfg), bus_(bus) {
    code_pages_.resize((sram.size + kCodePageMask) >> kCodePageShift);
    private_pages_.resize(code_pages_.size());
    icache_.configure(cfg.icache, sram.size);
    dcache_.configure(cfg.dcache, sram.size);
    fetch_shift_ = icache_.line_shift();
    dline_shift_ = dcache_.line_shift();
    icache_fill_ = line_fill_cycles(icache_);
    dcache_fill_ = line_fill_cycles(dcache_);
    uncached_fill_ = cfg.uncached_fetch_fills_line ? icache_fill_ : 0;
    const uint32_t line_mask = (1u << fetch_shift_) - 1;
    code_key_ = CodeKey{decode_inputs(cfg), fetch_shift_, sram.cached_base & line_mask, sram.uncached_base & line_mask};
    write_slots_.assign(std::max<uint32_t>(cfg.posted_writes, 1), 0);
    kernel_.add_runnable(this);
}

// ---------------------------------------------------------------- lifecycle

void Cpu::hold_reset() {
    state_ = State::Reset;
    fault_.reset();
    stop_burst();
}

void Cpu::release_reset(uint32_t entry) {
    std::fill(std::begin(x_), std::end(x_), 0u);
    pc_ = entry;
    cycle_ = instret_ = stall_cycles_ = last_progress_ = 0;
    counts_ = {};
    spin_ = {};
    spin_passes_skipped_ = 0;
    function_ids_.clear();  // another image: other functions
    mstatus_ = kMstatusMPP;
    mie_ = mip_ = mtvec_ = mscratch_ = mepc_ = mcause_ = mtval_ = 0;
    mcycle_offset_ = minstret_offset_ = 0;
    std::fill(write_slots_.begin(), write_slots_.end(), 0);
    write_next_ = 0;
    write_bus_free_ = 0;
    icache_on_ = dcache_on_ = false;  // the PPC440 leaves reset with caches off
    cached_lo_ = UINT32_MAX;
    cached_hi_ = 0;
    ahead_from_ = Time::max();
    icache_.configure(cfg_.icache, sram_.size);
    dcache_.configure(cfg_.dcache, sram_.size);
    drop_code_pages();  // another image: its pages may be shared again
    exit_code_ = 0;
    fault_.reset();
    reset_time_ = kernel_.now();
    state_ = State::Running;
    kernel_.wake(this);
}

void Cpu::halt(uint32_t exit_code) {
    exit_code_ = exit_code;
    state_ = State::Halted;
    stop_time_ = local_time();
    stop_burst();
    if (debug_) [[unlikely]] {
        DebugStop why{DebugStop::Kind::Exited, pc_};
        why.exit_code = exit_code;
        debug_pending_ = why;
    }
}

void Cpu::stop_with_fault(const FaultInfo& f) {
    fault_ = f;
    state_ = State::Faulted;
    stop_time_ = local_time();
    stop_burst();
    if (debug_) [[unlikely]] {
        DebugStop why{DebugStop::Kind::Fault, pc_};
        why.fault = f.kind;
        why.mcause = f.cause;
        debug_pending_ = why;
    }
}

uint64_t Cpu::cycle_at(Time t) const { return t <= reset_time_ ? 0 : (t - reset_time_) / clock_.period(); }

// ---------------------------------------------------------------- caches and code

void Cpu::set_cache_enable(bool icache, bool dcache) {
    if (dcache_on_ && !dcache) flush_dcache();
    icache_on_ = icache;
    dcache_on_ = dcache;
    reset_fetch();
    // A cache off: the core's accesses no longer all show in the filled range, nor its
    // fetches all cost nothing past the horizon; the burst goes no further than it.
    if (!(icache && dcache) && horizon_limit_ != UINT64_MAX) {
        limit_ = std::min(limit_, horizon_limit_);
        horizon_limit_ = UINT64_MAX;
    }
}

void Cpu::invalidate_icache() {
    icache_.invalidate_all();
    reset_fetch();
}

void Cpu::flush_dcache() {
    uint32_t dirty = dcache_.invalidate_all();
    for (uint32_t i = 0; i < dirty; ++i) posted_write(dcache_fill_);
}

void Cpu::invalidate_code(uint32_t sram_offset, uint32_t length) {
    if (sram_offset >= sram_.size) return;
    uint32_t end = std::min<uint64_t>(uint64_t(sram_offset) + length + 3, sram_.size);
    for (uint32_t w = sram_offset / 4; w < end / 4; ++w) forget_decode(w * 4);
}

uint32_t Cpu::decode_and_execute(const Insn& slot) {
    // `slot` is this pc's entry in its code page: decode it in place, then run it. A
    // shared page's slot, forgotten there (forget_slot), is decoded in the core's own
    // copy of the page: never from one core's SRAM into a page others run.
    const uint32_t off = pc_sram_offset(), index = off >> kCodePageShift;
    auto& target = own_page(index) ? const_cast<Insn&>(slot) : private_page(index)[(off & kCodePageMask) >> 2];
    // Invalidation only swaps the handler, so the loop charged this slot the cost of
    // whatever was decoded here before: take it back and charge the new instruction.
    cycle_ -= target.cost;
    target = decode(current_insn_bits(), cfg_);
    cycle_ += target.cost;
    // A breakpoint survives the slot being re-armed (a store to the word, a cache mode change).
    if (debug_ && breakpoint_at(pc_sram_offset() >> 2)) [[unlikely]] target.fn = op::debug_trap;
    return target.fn(*this, target, pc_);
}

// ---------------------------------------------------------------- run loop

void Cpu::refresh_limit() {
    uint64_t horizon = clock_.cycles_ceil(kernel_.horizon() - reset_time_);
    // Running ahead, what the core scheduled (or a stop request) holds back what it shares.
    uint64_t& bound = horizon_limit_ != UINT64_MAX ? horizon_limit_ : limit_;
    if (horizon < bound) bound = horizon;
}

uint64_t Cpu::run_ahead_limit(uint64_t horizon) const {
    if (!run_ahead_ || debug_ || (mstatus_ & kMstatusMIE) || !watches_.empty() || !(icache_on_ && dcache_on_) ||
        kernel_.activity())
        return horizon;
    // To kRunAheadCycles past the horizon, the run's end or the watchdog's limit, whichever
    // is first (in whole cycles from the horizon: a run to Time::max() has no end to reckon).
    const Time room = kernel_.run_end() - reset_time_ - clock_.cycles(horizon);
    if (room <= Time{}) return horizon;
    const int64_t period = clock_.period_ps();  // a division only near the run's end
    uint64_t limit = horizon + (room >= clock_.cycles(kRunAheadCycles) ? kRunAheadCycles
                                                                         : uint64_t((room.ps() + period - 1) / period));
    if (watchdog_cycles_) limit = std::min(limit, last_progress_ + watchdog_cycles_ + 1);
    return limit;
}

bool Cpu::hold_back_past() {
    // Costs and counts are where the per-instruction loop has them: its own cost charged.
    const uint64_t start = cycle_ - fetch_page_[(pc_ - fetch_base_) >> 2].cost;
    // Where the fill of its line took it past the horizon, the loop's check came first.
    if (start < horizon_limit_ || start == fetched_at_) return false;
    cycle_ = start;
    --instret_;
    stop_burst();
    return true;
}

void Cpu::check_outside_access(uint32_t sram_offset, uint32_t length, bool write) const {
    if (ahead_from_ == Time::max() || !kernel_.in_run()) return;
    const Time now = kernel_.now();
    if (now < ahead_from_ || now >= local_time()) return;
    if (sram_offset >= cached_hi_ || uint64_t(sram_offset) + length <= cached_lo_) return;
    char what[320];
    std::snprintf(what, sizeof what,
                  "SRAM offset 0x%x (%u bytes) %s from outside node %u's NIC core at %.3f ns, while the core, run "
                  "ahead of its horizon to %.3f ns, may have reached it through its caches (lines from 0x%x to 0x%x)",
                  sram_offset, length, write ? "written" : "read", node_, now.as_ns(), local_time().as_ns(), cached_lo_,
                  cached_hi_);
    throw std::logic_error(std::string(what) +
                           ": running ahead needs what the rest of the system reads or writes during a run to be "
                           "uncached in the firmware (FW_UNCACHED); the spec key \"run_ahead\": false turns it off");
}

void Cpu::run(sim::Kernel& kernel) {
    (void)kernel;
    const auto shared = [this] {
        return counts_.device_loads + counts_.device_stores + counts_.uncached_loads + counts_.uncached_stores;
    };
    const uint64_t shared_before = shared();
    ahead_from_ = Time::max();  // its horizon is past its clock: every earlier event has fired
    check_interrupts();
    while (state_ == State::Running) {
        uint64_t limit = clock_.cycles_ceil(kernel_.horizon() - reset_time_);
        if (watchdog_cycles_) limit = std::min(limit, last_progress_ + watchdog_cycles_ + 1);
        if (cycle_ >= limit) {
            check_watchdog();
            break;
        }
        if (debug_) [[unlikely]] limit = debug_burst_limit(limit);
        horizon_limit_ = UINT64_MAX;
        if (const uint64_t ahead = run_ahead_limit(limit); ahead > limit) {
            horizon_limit_ = limit;
            limit = ahead;
        }
        limit_ = limit;
        if (kernel_.activity()) [[unlikely]]
            execute<true>();
        else
            execute<false>();
        if (debug_) [[unlikely]] debug_after_burst();
        if (horizon_limit_ != UINT64_MAX && cycle_ > horizon_limit_)
            ahead_from_ = std::min(ahead_from_, time_at_cycle(horizon_limit_));
        horizon_limit_ = UINT64_MAX;
        check_watchdog();
        if (state_ == State::Running) check_interrupts();
    }
    if (debug_ && debug_pending_) [[unlikely]] debug_after_burst();  // e.g. the watchdog fired
    ++runs_;
    private_runs_ += state_ == State::Running && shared() == shared_before;
}

template <bool kProfile>
void Cpu::execute() {
    // The pc lives in a register across instructions (handlers take and return it);
    // pc_ gets each value too, so traps and slow paths see where they are.
    uint32_t pc = pc_;
    // Blocks skip the per-instruction checks; profiling (a span per function) and a
    // debugger (breakpoints in slots, single steps) need every instruction to pass them.
    const bool blocks = !kProfile && block_dispatch_ && !debug_;
    [[maybe_unused]] sim::ActivityLog* log = kProfile ? kernel_.activity() : nullptr;
    [[maybe_unused]] uint64_t span_start = cycle_;
    [[maybe_unused]] uint32_t function = kProfile ? function_at(*log, pc) : 0;
    // A span ends where the function changes (a call, a return, a trap) and at the
    // burst's end; its cycles run from its first instruction to the next one's.
    ++bursts_;  // a spin loop's pass is repeated only within one burst (spin.cpp)
    [[maybe_unused]] auto close_span = [&] {
        log->record(sim::Activity::Firmware, node_, time_at_cycle(span_start), time_at_cycle(cycle_), function);
        span_start = cycle_;
    };
    while (cycle_ < limit_) {
        if constexpr (kProfile) {
            const uint32_t f = function_at(*log, pc);
            if (f != function) {
                close_span();
                function = f;
            }
        }
        pc_ = pc;
        if ((pc >> fetch_shift_) != fetch_line_) [[unlikely]] {
            // Past the horizon (running ahead), a fetch that costs cycles waits for a run that
            // reaches it: those cycles come before its instruction's start. One that hits the
            // I-cache in another code page (a call, a return) goes on, as fetch_slow makes it.
            if (cycle_ >= horizon_limit_) {
                if (!fetch_hit(pc) && !(fetch_resident(pc) && fetch_slow())) break;
            } else if (!fetch_next_line(pc) && !fetch_slow()) {
                pc = pc_;  // trapped to the handler, or stopped
                continue;
            }
        }
        Insn* in = &fetch_page_[(pc - fetch_base_) >> 2];
        if (blocks) {
            if (in->block_n == 0) [[unlikely]] in = build_block(in, pc);
            if (cycle_ + in->block_pre < limit_) [[likely]] {  // the whole block is before the horizon
                chain_left_ = kMaxChain;
                pc = run_block(*in, pc);
                continue;
            }
        }
        cycle_ += in->cost;
        ++instret_;
        pc = in->fn(*this, *in, pc);
    }
    pc_ = pc;
    if constexpr (kProfile) close_span();
}

uint32_t Cpu::run_alone(Insn& slot, uint32_t pc) {
    Insn& in = slot.block_n == 0 ? *build_block(&slot, pc) : slot;
    cycle_ += in.cost;
    ++instret_;
    return in.fn(*this, in, pc);
}

uint32_t Cpu::function_at(sim::ActivityLog& log, uint32_t pc) {
    if (!namer_) return 0;
    uint32_t off = pc - sram_.cached_base;
    if (off >= sram_.size) off = pc - sram_.uncached_base;
    if (off >= sram_.size) return 0;
    if (function_ids_log_ != &log || function_ids_.empty()) {  // ids are the log's own
        function_ids_.assign(sram_.size / 4, 0);
        function_ids_log_ = &log;
    }
    uint32_t& id = function_ids_[off >> 2];
    if (id == 0) id = namer_(log, pc) + 1;
    return id - 1;
}

bool Cpu::fetch_slow() {
    // Called when the pc enters another line: the fetch is charged here, per line, and
    // each decoded instruction's cost is its own.
    uint32_t off = pc_ - sram_.cached_base;
    const bool cached_view = off < sram_.size;
    if (!cached_view) off = pc_ - sram_.uncached_base;
    if (off < sram_.size) {
        fetch_base_ = (cached_view ? sram_.cached_base : sram_.uncached_base) + (off & ~kCodePageMask);
        fetch_page_ = code_page(off);
        fetch_page_offset_ = off & ~kCodePageMask;
        fetch_cached_ = cached_view;
        fetch_line_ = pc_ >> fetch_shift_;
        uint32_t fill = 0;
        if (cached_view && icache_on_) {
            ++icache_.accesses;
            uint32_t line = off >> fetch_shift_;
            if (!icache_.resident(line)) {
                icache_.fill(line);
                note_fill(line, fetch_shift_);
                fill = icache_fill_;
            }
        } else if (cfg_.uncached_fetch_fills_line) {
            // Not cacheable here (the I-cache off, or the uncached view): PPC440x5 User's
            // Manual p.104 - the instruction cache controller still requests the whole
            // line, "even if the caching inhibited (I) storage attribute is set", into its
            // line fill buffer, from which the instructions go to the core as requested.
            // So a miss that allocates nothing: the line is read again once left.
            fill = icache_fill_;
        }
        cycle_ += fill;
        stall_cycles_ += fill;
        if (fill) fetched_at_ = cycle_;
        return true;
    }
    if (mtvec_ != 0 && pc_ == (mtvec_ & ~3u)) {
        // Report where the firmware was when it trapped (mepc), not the dead handler address.
        stop_with_fault(FaultInfo{FaultKind::DoubleFault, mepc_, mcause_, pc_, local_time()});
        return false;
    }
    // Not trap(): nothing was counted as retired for an instruction that was never fetched.
    take_trap(uint32_t(TrapCause::InstructionAccessFault), pc_, pc_);
    return false;
}

void Cpu::check_watchdog() {
    if (state_ == State::Running && watchdog_cycles_ && cycle_ - last_progress_ > watchdog_cycles_)
        stop_with_fault(FaultInfo{FaultKind::Watchdog, pc_, 0, 0, local_time()});
}

// ---------------------------------------------------------------- traps and interrupts

void Cpu::trap(uint32_t cause, uint32_t tval) {
    if (hold_back()) return;
    --instret_;  // the faulting instruction does not retire
    take_trap(cause, tval, pc_);
}

void Cpu::take_trap(uint32_t mcause, uint32_t tval, uint32_t epc) {
    if (mtvec_ == 0) {
        stop_with_fault(FaultInfo{FaultKind::UnhandledTrap, epc, mcause, tval, local_time()});
        return;
    }
    ++((mcause & kInterruptBit) ? counts_.interrupts : counts_.exceptions);
    mepc_ = epc;
    mcause_ = mcause;
    mtval_ = tval;
    mstatus_ = (mstatus_ & ~(kMstatusMIE | kMstatusMPIE)) | ((mstatus_ & kMstatusMIE) ? kMstatusMPIE : 0);
    uint32_t base = mtvec_ & ~3u;
    bool vectored = (mtvec_ & 3u) == 1 && (mcause & kInterruptBit);
    pc_ = vectored ? base + 4 * (mcause & ~kInterruptBit) : base;
    cycle_ += cfg_.trap_penalty;
    progress();
    stop_burst();
}

void Cpu::set_interrupt_pending(uint32_t mip_bit, bool level) {
    mip_ = level ? (mip_ | mip_bit) : (mip_ & ~mip_bit);
    if (state_ == State::Waiting && (mip_ & mie_)) {
        // wfi wakes on any enabled pending interrupt, whatever mstatus.MIE says.
        state_ = State::Running;
        // Resume at the first clock edge at or after the waking event; sleeping in wfi
        // was progress, so the watchdog period starts again here.
        cycle_ = std::max(cycle_, clock_.cycles_ceil(kernel_.now() - reset_time_));
        progress();
        kernel_.wake(this);
    }
    stop_burst();
}

void Cpu::check_interrupts() {
    uint32_t pending = mip_ & mie_;
    if (!pending || !(mstatus_ & kMstatusMIE) || state_ != State::Running) return;
    // Priority order of the privileged spec: external, software, timer.
    uint32_t cause = (pending & kMipMEIP) ? 11 : (pending & kMipMSIP) ? 3 : 7;
    take_trap(kInterruptBit | cause, 0, pc_);
}

void Cpu::exec_mret() {
    if (hold_back()) return;
    pc_ = mepc_;
    mstatus_ = (mstatus_ & ~kMstatusMIE) | ((mstatus_ & kMstatusMPIE) ? kMstatusMIE : 0) | kMstatusMPIE;
    cycle_ += cfg_.trap_penalty;
    stop_burst();  // an interrupt may now be deliverable
}

void Cpu::exec_wfi() {
    if (hold_back()) return;
    pc_ += 4;
    progress();
    if (mip_ & mie_) return;  // already pending: wfi falls through
    state_ = State::Waiting;
    stop_burst();
}

void Cpu::exec_fence() {
    // Drain the posted writes so later accesses are ordered after them.
    if (write_bus_free_ > cycle_) {
        stall_cycles_ += write_bus_free_ - cycle_;
        cycle_ = write_bus_free_;
    }
    pc_ += 4;
}

void Cpu::exec_fence_i() {
    exec_fence();
    invalidate_icache();
    invalidate_all_code();
}

// ---------------------------------------------------------------- memory slow paths

uint32_t Cpu::line_fill_cycles(const CacheModel& c) const {
    uint32_t beats = std::max<uint32_t>(c.line_bytes() / cfg_.bus_bytes_per_beat, 1);
    return cfg_.sram_read_cycles + (beats - 1) * cfg_.line_beat_cycles;
}

void Cpu::dcache_miss(uint32_t line) {
    note_fill(line, dline_shift_);
    uint32_t cost = dcache_fill_;
    if (dcache_.fill(line)) cost += dcache_fill_;  // write back the dirty victim first
    cycle_ += cost;
    stall_cycles_ += cost;
}

void Cpu::posted_write(uint32_t occupancy_cycles, uint64_t charged_ahead) {
    uint64_t& slot = write_slots_[write_next_];
    uint64_t now = cycle_ - charged_ahead;
    if (slot > now) {  // every slot busy: wait for the oldest write to complete
        stall_cycles_ += slot - now;
        cycle_ += slot - now;
        now = slot;
    }
    write_bus_free_ = std::max(write_bus_free_, now) + occupancy_cycles;
    slot = write_bus_free_;
    // The ring's next slot without a division: a LANai's every store comes here.
    if (++write_next_ == write_slots_.size()) write_next_ = 0;
}

bool Cpu::load_slow(uint32_t addr, unsigned size, uint32_t& out) {
    if (!watches_.empty()) [[unlikely]] {
        // Watchpoints sent every SRAM access here, the cached view's too (fast_sram_size_).
        if (watch_hit(addr, size, false)) return false;  // stopped before it: pc_ stays
        uint32_t cached = addr - sram_.cached_base;
        if (cached < sram_.size) {
            if (dcache_on_) {
                dcache_lookup(cached);
            } else {
                cycle_ += cfg_.sram_read_cycles;
                stall_cycles_ += cfg_.sram_read_cycles;
            }
            out = 0;
            std::memcpy(&out, sram_.data + cached, size);
            return true;
        }
    }
    if (hold_back()) return false;
    uint32_t off = addr - sram_.uncached_base;
    if (off < sram_.size) {
        ++counts_.uncached_loads;
        cycle_ += cfg_.sram_read_cycles;
        stall_cycles_ += cfg_.sram_read_cycles;
        out = 0;
        by_size(size, [&](auto n) { std::memcpy(&out, sram_.data + off, n); });
        return true;
    }
    ++counts_.device_loads;
    // Only a pass that starts at a spin loop's branch in this burst can be skipped
    // (spin.cpp), so only then is it asked whether the load was pure.
    if (spin_.burst == bursts_ && !bus_.pure_read(addr)) ++impure_loads_;
    device_load_cycle_ = cycle_;
    kernel_.sync_to(local_time());
    Time latency{};
    uint32_t value = 0;
    if (!bus_.read(addr, size, local_time(), value, latency)) {
        trap(uint32_t(TrapCause::LoadAccessFault), addr);
        return false;
    }
    uint64_t stall = clock_.cycles_ceil(latency);
    cycle_ += stall;
    stall_cycles_ += stall;
    refresh_limit();
    out = value;
    return true;
}

bool Cpu::store_slow(uint32_t addr, unsigned size, uint32_t value) {
    if (!watches_.empty()) [[unlikely]] {
        // As load_slow: the cached view's stores come here too while watchpoints are set.
        if (watch_hit(addr, size, true)) return false;
        uint32_t cached = addr - sram_.cached_base;
        if (cached < sram_.size) {
            if (dcache_on_) dcache_.mark_dirty(dcache_lookup(cached));
            else posted_write(cfg_.sram_write_cycles);
            std::memcpy(sram_.data + cached, &value, size);
            forget_decode(cached);
            return true;
        }
    }
    if (hold_back()) return false;
    uint32_t off = addr - sram_.uncached_base;
    if (off < sram_.size) {
        ++counts_.uncached_stores;
        posted_write(cfg_.sram_write_cycles);
        by_size(size, [&](auto n) { std::memcpy(sram_.data + off, &value, n); });
        forget_decode(off);
        progress();
        if (off == watch_offset_ && watch_cb_) {
            watch_cb_();
            refresh_limit();
        }
        return true;
    }
    ++counts_.device_stores;
    kernel_.sync_to(local_time());
    Time occupancy{};
    if (!bus_.write(addr, size, value, local_time(), occupancy)) {
        trap(uint32_t(TrapCause::StoreAccessFault), addr);
        return false;
    }
    posted_write(uint32_t(clock_.cycles_ceil(occupancy)));
    progress();
    refresh_limit();
    return true;
}

// ---------------------------------------------------------------- CSRs

bool Cpu::read_csr(uint32_t csr, uint32_t& value) const { return csr_value(csr, value); }

bool Cpu::csr_value(uint32_t csr, uint32_t& v) const {
    uint64_t mcycle = cycle_ + uint64_t(mcycle_offset_);
    uint64_t minstret = instret_ + uint64_t(minstret_offset_);
    switch (csr) {
        case 0x300: v = mstatus_; return true;
        case 0x301: v = kMisaRV32IM; return true;
        case 0x304: v = mie_; return true;
        case 0x305: v = mtvec_; return true;
        case 0x340: v = mscratch_; return true;
        case 0x341: v = mepc_; return true;
        case 0x342: v = mcause_; return true;
        case 0x343: v = mtval_; return true;
        case 0x344: v = mip_; return true;
        case 0xB00: case 0xC00: v = uint32_t(mcycle); return true;
        case 0xB80: case 0xC80: v = uint32_t(mcycle >> 32); return true;
        case 0xB02: case 0xC02: v = uint32_t(minstret); return true;
        case 0xB82: case 0xC82: v = uint32_t(minstret >> 32); return true;
        case 0xC01: v = uint32_t(cycle_); return true;         // time: the free-running counter
        case 0xC81: v = uint32_t(cycle_ >> 32); return true;
        case 0xF11: case 0xF12: case 0xF13: v = 0; return true;  // vendor/arch/impl ids
        case 0xF14: v = cfg_.hart_id; return true;
        default: return false;
    }
}

bool Cpu::csr_store(uint32_t csr, uint32_t v) {
    if ((csr >> 10) == 3) return false;  // read-only CSR space
    switch (csr) {
        case 0x300: mstatus_ = (v & (kMstatusMIE | kMstatusMPIE)) | kMstatusMPP; return true;
        case 0x301: return true;  // misa is WARL; writes are ignored
        case 0x304: mie_ = v & (kMipMSIP | kMipMTIP | kMipMEIP); return true;
        case 0x305: mtvec_ = v & ~2u; return true;  // modes 0 (direct) and 1 (vectored)
        case 0x340: mscratch_ = v; return true;
        case 0x341: mepc_ = v & ~3u; return true;
        case 0x342: mcause_ = v; return true;
        case 0x343: mtval_ = v; return true;
        case 0x344: mip_ = (mip_ & ~kMipMSIP) | (v & kMipMSIP); return true;  // MTIP/MEIP are wired
        case 0xB00: mcycle_offset_ += int64_t(v) - int64_t(uint32_t(cycle_ + mcycle_offset_)); return true;
        case 0xB80: mcycle_offset_ += (int64_t(v) - int64_t((cycle_ + mcycle_offset_) >> 32)) << 32; return true;
        case 0xB02: minstret_offset_ += int64_t(v) - int64_t(uint32_t(instret_ + minstret_offset_)); return true;
        case 0xB82: minstret_offset_ += (int64_t(v) - int64_t((instret_ + minstret_offset_) >> 32)) << 32; return true;
        default: return false;
    }
}

uint32_t Cpu::pc_sram_offset() const {
    uint32_t off = pc_ - sram_.cached_base;
    return off < sram_.size ? off : pc_ - sram_.uncached_base;
}

uint32_t Cpu::current_insn_bits() const {
    uint32_t raw = 0;
    std::memcpy(&raw, sram_.data + pc_sram_offset(), 4);
    return raw;
}

void Cpu::exec_csr(const Insn& in, uint32_t operand, bool write, bool set, bool clear) {
    uint32_t csr = uint32_t(in.imm);
    uint32_t old = 0;
    if (!csr_value(csr, old)) {  // every implemented CSR is readable
        trap(uint32_t(TrapCause::IllegalInstruction), current_insn_bits());
        return;
    }
    bool writes = write || ((set || clear) && in.rs1 != 0);  // rs1/uimm = 0: read only
    // A read of a counter is the core's own; any other CSR may bear on interrupts.
    const uint32_t low = csr & ~0x80u;  // mcycle, minstret, cycle, time, instret and their high halves
    const bool counter = (low >= 0xB00 && low <= 0xB02) || (low >= 0xC00 && low <= 0xC02);
    if (!(counter && !writes) && hold_back()) return;
    if (writes) {
        uint32_t nv = write ? operand : set ? (old | operand) : (old & ~operand);
        if (!csr_store(csr, nv)) {
            trap(uint32_t(TrapCause::IllegalInstruction), current_insn_bits());
            return;
        }
        // minstret counts this instruction after the write took effect; keep the written value.
        if (csr == 0xB02 || csr == 0xB82) --minstret_offset_;
        stop_burst();  // mstatus/mie changes may make an interrupt deliverable
    }
    x_[in.rd] = old;
    pc_ += 4;
}

}  // namespace niclab::core
