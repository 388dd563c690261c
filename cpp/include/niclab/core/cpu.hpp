#pragma once
// The NIC's embedded core: an RV32IM + Zicsr machine-mode instruction-set simulator
// with a timing model. Each instruction is decoded once into a cache of decoded
// instructions (one slot per SRAM word) holding a handler pointer and its operands,
// so execution dispatches through the pointer instead of a switch on the raw bits.
// A store into SRAM re-arms the decoder for that word; fence.i and reload clear all.
//
// Time: the core counts cycles at its clock from the moment it left reset. It runs
// ahead of global time up to the kernel's horizon (and, running ahead, past it through
// instructions that touch only its own state: set_run_ahead), synchronizes on every bus
// access (MMIO, host windows), and sleeps in wfi until an enabled interrupt is pending.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "niclab/core/bus.hpp"
#include "niclab/core/cache_model.hpp"
#include "niclab/core/code_pool.hpp"
#include "niclab/core/core_config.hpp"
#include "niclab/core/debug_hooks.hpp"
#include "niclab/core/fault.hpp"
#include "niclab/sim/kernel.hpp"

namespace niclab::core {

class Cpu;
struct Insn;
// Most blocks one chain of them enters (Cpu::chain_to).
constexpr uint32_t kMaxChain = 16;
// Executes one instruction at `pc`; returns the next pc.
using Handler = uint32_t (*)(Cpu&, const Insn&, uint32_t pc);

// A decoded instruction. x0 as a destination is decoded as register 32, a sink
// that is never read, so handlers need no "rd != 0" test.
struct Insn {
    Handler fn;
    int32_t imm;   // immediate; CSR number for CSR ops; raw bits for illegal ones
    uint8_t rd, rs1, rs2;
    uint8_t cost;  // base cycles of its class
    // The block that starts at this slot (block.cpp): its instruction count (0: not
    // built yet), its base cost, and that cost without its last instruction's.
    uint8_t block_n = 0;
    uint16_t block_cost = 0, block_pre = 0;
    // How a block runs this slot: `fn` if it is the block's last instruction, else fn's
    // threaded form, which goes on to the next slot's entry (op::threaded).
    Handler entry = nullptr;
};

struct SramView {
    uint8_t* data = nullptr;
    uint32_t size = 0;
    uint32_t cached_base = 0;
    uint32_t uncached_base = 0;
};

// mip/mie bits (privileged spec).
constexpr uint32_t kMipMSIP = 1u << 3;
constexpr uint32_t kMipMTIP = 1u << 7;
constexpr uint32_t kMipMEIP = 1u << 11;

class Cpu final : public sim::Runnable {
public:
    enum class State { Reset, Running, Waiting, Halted, Faulted };

private:
    // What the kernel reads of a core that is not running - local_time(), active() -
    // first, in the cache lines of the Runnable's own fields: on a large system an event
    // that wakes a core finds it out of the host's caches, and the state, the reset time,
    // the clock and the cycle counter were four lines apart. The burst's counters follow,
    // then what every run reads before and after its burst (run(), execute(),
    // check_interrupts()): on a 512-node halo these were seven more lines, each missing
    // the host's second-level cache at most runs.
    State state_ = State::Reset;
    Time reset_time_{};
    Clock clock_;
    uint64_t cycle_ = 0;
    uint64_t limit_ = 0;           // stop the current burst at this cycle
    // Running ahead (set_run_ahead): the horizon, in cycles, past which an instruction that
    // reads or writes what the rest of the system shares holds back (hold_back); limit_ is
    // then further on. UINT64_MAX when the burst does not run ahead.
    uint64_t horizon_limit_ = UINT64_MAX;
    uint64_t instret_ = 0;
    sim::Kernel& kernel_;
    DebugListener* debug_ = nullptr;
    uint64_t last_progress_ = 0;
    uint64_t watchdog_cycles_;     // cfg_.watchdog_cycles
    uint64_t bursts_ = 0;
    uint64_t runs_ = 0, private_runs_ = 0;  // runs() and private_runs()
    uint32_t mstatus_ = 0, mie_ = 0, mip_ = 0;  // machine-mode CSRs (the rest below)
    bool block_dispatch_ = true;
    bool icache_on_ = false;

public:
    Cpu(sim::Kernel& kernel, const CoreConfig& cfg, SramView sram, Bus& bus);

    // ---- lifecycle (seed 000 §3.2: hold in reset, write the image, release) ----
    void hold_reset();
    void release_reset(uint32_t entry);
    void halt(uint32_t exit_code);         // clean stop requested by the firmware
    void stop_with_fault(const FaultInfo& f);
    State state() const { return state_; }
    const std::optional<FaultInfo>& fault() const { return fault_; }
    uint32_t exit_code() const { return exit_code_; }
    Time stop_time() const { return stop_time_; }  // when it halted or faulted

    // Call `cb` when the core stores to this SRAM offset (the loader watches the
    // running flag this way, so boot time is exact).
    void set_store_watch(uint32_t sram_offset, std::function<void()> cb) {
        watch_offset_ = sram_offset;
        watch_cb_ = std::move(cb);
    }

    // ---- profiling: while the kernel has an activity log (sim/activity.hpp), the core
    // records its execution there, one span per run of instructions in one function.
    // `namer` gives a PC's function as a detail of that log (the NIC asks its symbols).
    void set_node(uint32_t node) {
        node_ = node;
        kernel_.set_runnable_node(this, node);  // lookahead: it runs to its own node's next event
    }
    void set_function_namer(std::function<uint32_t(sim::ActivityLog&, uint32_t pc)> namer) {
        namer_ = std::move(namer);
        function_ids_.clear();
    }

    // ---- interrupts: devices drive mip.MTIP / mip.MEIP ----
    void set_interrupt_pending(uint32_t mip_bit, bool level);

    // ---- caches, under firmware control (NIC control block) ----
    void set_cache_enable(bool icache, bool dcache);
    bool icache_enabled() const { return icache_on_; }
    bool dcache_enabled() const { return dcache_on_; }
    void invalidate_icache();
    void flush_dcache();
    const CacheModel& icache() const { return icache_; }
    const CacheModel& dcache() const { return dcache_; }

    // Someone other than the core wrote SRAM (loader, DMA, debugger).
    void invalidate_code(uint32_t sram_offset, uint32_t length);
    void invalidate_all_code();

    // ---- inspection ----
    uint32_t pc() const { return pc_; }
    uint32_t reg(unsigned i) const { return i == 0 ? 0 : x_[i]; }
    void set_reg(unsigned i, uint32_t v) { if (i != 0 && i < 32) x_[i] = v; }
    bool read_csr(uint32_t csr, uint32_t& value) const;
    uint64_t cycles() const { return cycle_; }
    uint64_t instret() const { return instret_; }
    uint64_t stall_cycles() const { return stall_cycles_; }
    // Events off the fast paths, counted where they are handled (observations).
    struct Counts {
        uint64_t interrupts = 0;      // interrupts taken (trap entries with mcause's interrupt bit)
        uint64_t exceptions = 0;      // synchronous traps taken (ecall, faults with a handler)
        uint64_t uncached_loads = 0;  // loads from the uncached SRAM view
        uint64_t uncached_stores = 0;
        uint64_t device_loads = 0;    // loads below SRAM: registers and host windows
        uint64_t device_stores = 0;
    };
    const Counts& counts() const { return counts_; }
    // The runs the kernel cut this core's execution into, and those of them that made no
    // device access and no uncached SRAM access (nothing another part of the system reads
    // or writes: the host's mailbox and control block are uncached) and did not go to
    // sleep. Stopped at the horizon, such a run ended only because the horizon did; running
    // ahead (set_run_ahead), it mostly went on to a shared access and left that to the next
    // run (a held-back access is not counted) (bench_scale).
    uint64_t runs() const { return runs_; }
    uint64_t private_runs() const { return private_runs_; }
    const Clock& clock() const { return clock_; }
    const CoreConfig& config() const { return cfg_; }
    Time reset_time() const { return reset_time_; }
    uint64_t cycle_at(Time t) const;  // core cycles since reset at global time t
    Time time_at_cycle(uint64_t c) const { return reset_time_ + clock_.cycles(c); }
    // Global time at which mcycle (as the firmware reads it) was 0: reset, moved by
    // any write the firmware made to mcycle. A trace timestamp m happened at this + m cycles.
    Time mcycle_epoch() const { return reset_time_ - Time::ps(mcycle_offset_ * clock_.period_ps()); }

    // ---- debugger (cpu_debug.cpp): nothing here costs anything while none is attached ----
    // Breakpoints swap the handler of their decoded-instruction slot for a trap to the
    // debugger; watchpoints send SRAM accesses down the full load/store path, which
    // checks them. Attaching null detaches and clears every breakpoint and watchpoint.
    void attach_debugger(DebugListener* listener);
    DebugListener* debugger() const { return debug_; }
    // False when the address is not in SRAM (either view; both alias the same word).
    bool set_breakpoint(uint32_t address, bool on);
    bool set_watchpoint(uint32_t address, uint32_t length, WatchKind kind, bool on);
    // The debugger resumes the core when it was stopped outside a burst (at attach).
    void debug_resume(Resume how);
    // Block dispatch (block.cpp) on or off; off, every instruction takes the
    // per-instruction path. Both give the same results to the cycle (a test compares them).
    void set_block_dispatch(bool on) { block_dispatch_ = on; }
    // Polling fast-forward (spin.cpp) on (the default) or off: in block dispatch, a loop
    // spinning on SRAM charges the passes it would repeat until the burst's limit at
    // once instead of running them. Both give the same results to the cycle (a test
    // compares them). Passes skipped since reset:
    void set_spin_skip(bool on) { spin_skip_ = on; }
    // Translated blocks (core/translate.hpp) on (the default) or off for the blocks this
    // core builds in pages shared through a code pool. Both give the same results to the
    // cycle (a test compares them).
    void set_block_translation(bool on) { translate_ = on; }
    // Running ahead (off by default; system::SystemSpec's "run_ahead" turns it on for a
    // system's NIC cores): a run that reaches the kernel's horizon goes on through the
    // instructions that touch only the core's own state - registers, the cached SRAM view
    // through the D-cache, the caches' model, the write buffer, fetches that hit the
    // I-cache - and stops at the first one starting at or past the horizon that does not:
    // a device or host-window access, an uncached SRAM access, a CSR other than a counter
    // read, wfi, mret or a trap. That instruction runs in a later run, at the same cycle
    // as without running ahead: nothing outside the core can change what the private ones
    // compute, so every result is the same to the cycle (a test compares every SeaStar
    // experiment both ways), with fewer runs (a 512-node halo of puts: 75 a message, not 137).
    // It holds only while nothing else reads or writes the words the core reaches through
    // its caches: a firmware keeps what it shares uncached, and check_outside_access
    // makes a model that breaks this a logic_error instead of a silent difference. Off
    // for a burst with interrupts enabled (mstatus.MIE), a debugger, watchpoints, the
    // activity log, or either cache off. A burst goes at most kRunAheadCycles past the
    // horizon, so a core spinning in private code still returns to the kernel.
    void set_run_ahead(bool on) { run_ahead_ = on; }
    static constexpr uint64_t kRunAheadCycles = 1u << 14;
    // Something outside the core reads (`write` false) or writes SRAM [offset, offset +
    // length): a std::logic_error when, during a run, it happens at a time the core has
    // run ahead past and the range meets a line the core's caches have held since reset.
    void check_outside_access(uint32_t sram_offset, uint32_t length, bool write) const;
    uint64_t spin_passes_skipped() const { return spin_passes_skipped_; }
    // Decoded code pages shared through `pool` (code_pool.hpp) with the other cores of
    // the simulation that use it, or (null, the default) all private. Both give the same
    // results to the cycle (a test compares them). Forgets every decoded page.
    void set_code_pool(CodePool* pool);
    // Of the code pages this core has entered since its reset or last fence.i: how many
    // it shares through the pool and how many are its own.
    uint32_t shared_code_pages() const;
    uint32_t private_code_pages() const;
    bool write_csr(uint32_t csr, uint32_t value) { return csr_store(csr, value); }
    void set_pc(uint32_t pc) { pc_ = pc; reset_fetch(); }

    // ---- sim::Runnable ----
    Time local_time() const override { return reset_time_ + clock_.cycles(cycle_); }
    bool active() const override { return state_ == State::Running; }
    void run(sim::Kernel& kernel) override;
    std::span<const std::byte> hot_memory() const override { return std::as_bytes(std::span(this, 1)); }

    // ---- used by the instruction handlers (execute.cpp) ----
    uint32_t x_[33] = {};  // x0..x31 and the x0 sink
    uint32_t pc_ = 0;

    template <typename T> bool load(uint32_t addr, T& out);
    // The call-free fast path of loads and stores: an aligned access to the cached SRAM
    // view that hits the D-cache (or, for loads, any such access with the D-cache off).
    // Charges it and gives the SRAM offset; false means "take the full path".
    bool sram_hit(uint32_t addr, uint32_t size, uint32_t& off);
    bool sram_store_hit(uint32_t addr, uint32_t size, uint32_t& off);
    // ---- a load or store inside a block (block.cpp) ----
    // sram_store_hit for a word no decode covers (a data page, or a code page's word never
    // decoded): no decode to forget. With the D-cache off, false: see posted_data_store.
    bool sram_data_store_hit(uint32_t addr, uint32_t size, uint32_t& off);
    // The same with the D-cache off, where the store is a posted write (a LANai's SRAM):
    // true when it went into the write buffer, waiting from the store's own cycle (the
    // block charged the base cost of `in`'s later slots too: posted_write's charged_ahead).
    bool posted_data_store(uint32_t addr, uint32_t size, uint32_t& off, const Insn& in);
    // On to the block's slot after `in`, unless a cost known only when it ran (an SRAM
    // read or a posted store with the D-cache off, a line fill) moved the block's last start
    // to the horizon: then the block ends before that slot, and the loop goes on from there.
    // With kCross, `in` is the last word of its fetch line: the next slot is entered as the
    // loop enters a line (fetch_next_line), and where that is an I-cache miss the block ends
    // there too. kCharged: `in` may have charged such a cost. A slot that charged none (a
    // register-only one, a D-cache hit) leaves the last start where the check before it
    // found it (cycle_ - the last slot's cost < limit_, and nothing in a block moves
    // limit_), so its own check could not fail and is left out.
    template <bool kCross, bool kCharged = true> uint32_t block_next(const Insn& in, uint32_t next_pc);
    // A block that ends in a branch or jump goes on into the block at its target without
    // returning to the loop, when the loop would run that block whole next (block.cpp);
    // otherwise returns the pc to the loop, which then does exactly what it would have.
    uint32_t chain_to(uint32_t pc);
    // chain_to's end when the block at `pc` (its line fetched) is not to run whole: the pc
    // back to the loop, or, where the fetch's fill took the clock to the horizon, `in` run
    // alone (run_alone) as the loop runs an instruction whose line it fetched.
    uint32_t chain_stopped(Insn& in, uint32_t pc);
    // `in`, inside a block, is to run as the per-instruction loop runs it (the slot after a
    // line whose fill took the clock to the horizon): the block stops at it, with the
    // counters where that loop would have them, and its handler runs.
    uint32_t leave_block(const Insn& in, uint32_t pc);
    // The same for a load or store whose form in the block (threaded or translated) has
    // just found its fast path closed (a miss, a device, a store into code, a trap): straight
    // to the handler's full path (`full`: op::lw_full and the like, given the address),
    // without the handler's second look at the fast path.
    uint32_t leave_to_full(const Insn& in, uint32_t pc, uint32_t (*full)(Cpu&, const Insn&, uint32_t addr)) {
        stop_block_at(in, pc);
        return full(*this, in, x_[in.rs1] + uint32_t(in.imm));
    }
    // A store a block can go on through whatever the caches: aligned, into the fast SRAM
    // view (its offset in `off`), and into a word no decode covers. A decoded word must be
    // forgotten (forget_decode); one never decoded need not - a firmware's globals often
    // share the page where its text ends.
    bool data_word_store(uint32_t addr, uint32_t size, uint32_t& off) const;
    // A load or store inside a block in the uncached SRAM view (its offset in `off`): charged
    // and counted as load_slow and store_slow charge and count it, true; false, changing
    // nothing, when it takes its full path - not in that view, misaligned, a watchpoint set
    // (fast_sram_size_ is 0), held back (its start at or past where a core running ahead
    // holds back what it shares: hold_back; the block charged its base cost up front, so
    // `in` starts in.block_cost before cycle_), or a store into a decoded word or the
    // watched one.
    bool uncached_load_in_block(uint32_t addr, uint32_t size, uint32_t& off, const Insn& in);
    bool uncached_store_in_block(uint32_t addr, uint32_t size, uint32_t& off, const Insn& in);
    uint8_t* sram_data() { return sram_.data; }
    template <typename T> bool store(uint32_t addr, T value);
    void trap(uint32_t cause, uint32_t tval);  // synchronous exception at pc_
    uint32_t branch_to(uint32_t target);       // taken branch or jump: the next pc
    void exec_csr(const Insn& in, uint32_t operand, bool write, bool set, bool clear);
    void exec_mret();
    void exec_wfi();
    void exec_fence();
    void exec_fence_i();
    void add_cycles(uint32_t n) { cycle_ += n; }
    uint32_t decode_and_execute(const Insn& slot);
    uint32_t current_insn_bits() const;
    uint32_t pc_sram_offset() const;  // the executing word's SRAM offset (pc in either view)
    // The handler of a decoded slot with a debugger breakpoint (cpu_debug.cpp).
    uint32_t debug_trap(const Insn& in, uint32_t pc);
    // A spin loop's closing branch went back to its head (spin.cpp).
    void spin_check(uint32_t head, uint32_t branch_pc, const Insn& branch);

private:
    // The instruction loop; the profiled one also records firmware spans (a separate
    // instantiation, so the plain one pays nothing for profiling).
    template <bool kProfile> void execute();
    uint32_t function_at(sim::ActivityLog& log, uint32_t pc);
    bool fetch_slow();
    // The pc entered another line of the code page it is in, in the cached view, and
    // the I-cache holds the line: what fetch_slow would do (count the access, no fill), inline.
    bool fetch_hit(uint32_t pc) {
        const uint32_t rel = pc - fetch_base_, off = fetch_page_offset_ + rel;
        if (!(fetch_cached_ && icache_on_) || rel > kCodePageMask || off >= sram_.size) return false;
        if (!icache_.resident(off >> fetch_shift_)) return false;
        ++icache_.accesses;
        fetch_line_ = pc >> fetch_shift_;
        return true;
    }
    // A fetch at `pc` in the cached view would hit the I-cache (costs nothing), in any page.
    bool fetch_resident(uint32_t pc) const {
        const uint32_t off = pc - sram_.cached_base;
        return icache_on_ && off < sram_.size && icache_.resident(off >> fetch_shift_);
    }
    // A block runs on into the next line of its page (block_next<true>): that line's fetch as
    // fetch_slow would make it, inline, where its cost needs no look at the I-cache's state -
    // a hit, or a fetch not through the I-cache (the I-cache off, or the uncached view), whose
    // fill is the same every time. False leaves the fetch to the loop: a miss, or another page.
    bool fetch_next_line(uint32_t pc) {
        if (fetch_cached_ && icache_on_) return fetch_hit(pc);
        const uint32_t rel = pc - fetch_base_;
        if (rel > kCodePageMask || fetch_page_offset_ + rel >= sram_.size || !fetch_page_) return false;
        cycle_ += uncached_fill_;
        stall_cycles_ += uncached_fill_;
        fetch_line_ = pc >> fetch_shift_;
        return true;
    }
    // Builds the block at `first` (the pc's slot in fetch_page_) and gives its slot: in the
    // core's own copy of the page when it had to make one (a slot forgotten in a shared page).
    Insn* build_block(Insn* first, uint32_t pc);
    // One instruction as the loop runs it after fetching its line: its block built (so it
    // is decoded) first, as the loop builds it.
    uint32_t run_alone(Insn& in, uint32_t pc);
    uint32_t run_block(const Insn& in, uint32_t pc);
    void take_trap(uint32_t mcause, uint32_t tval, uint32_t epc);
    void check_interrupts();
    void dcache_miss(uint32_t line);
    // The D-cache hit check (one byte load); a miss charges the line fill. Returns the line.
    uint32_t dcache_lookup(uint32_t sram_offset) {
        ++dcache_.accesses;
        uint32_t line = sram_offset >> dline_shift_;
        if (!dcache_.resident(line)) [[unlikely]] dcache_miss(line);
        return line;
    }
    uint32_t line_fill_cycles(const CacheModel& c) const;
    // A write into the core's posted-write buffer (SRAM with the D-cache off, a dirty line
    // written back): it waits for a free slot, then for the write bus. `charged_ahead`:
    // cycles cycle_ holds past the loop's view of the writing instruction (a block charges
    // its whole base cost up front, so a store inside it passes the rest of the block's).
    void posted_write(uint32_t occupancy_cycles, uint64_t charged_ahead = 0);
    bool load_slow(uint32_t addr, unsigned size, uint32_t& out);
    bool store_slow(uint32_t addr, unsigned size, uint32_t value);
    void refresh_limit();
    void progress() { last_progress_ = cycle_; }
    // The running block stops at `in`: `in`'s block (which ends where the running one does)
    // holds its own cost and count and those of the slots after it, which do not run now.
    void stop_block_at(const Insn& in, uint32_t pc) {
        cycle_ -= in.block_cost - in.cost;
        instret_ -= in.block_n - 1u;
        pc_ = pc;
    }
    // No decoded instruction covers the word at this SRAM offset (a data word).
    bool undecoded(uint32_t sram_offset) const;
    // An access of `in`'s inside a block in the uncached view that need not take its full
    // path (uncached_load_in_block).
    bool uncached_in_block(uint32_t addr, uint32_t size, uint32_t& off, const Insn& in) const;
    void check_watchdog();
    bool csr_value(uint32_t csr, uint32_t& value) const;
    bool csr_store(uint32_t csr, uint32_t value);
    void stop_burst() { limit_ = 0; }
    uint64_t debug_burst_limit(uint64_t limit);
    void debug_after_burst();
    void debug_stop(const DebugStop& why);
    bool breakpoint_at(uint32_t sram_word) const;
    bool debug_sram_offset(uint32_t address, uint32_t& off) const;
    // The slow paths' watchpoint test: true means stopped before the access.
    bool watch_hit(uint32_t addr, uint32_t size, bool store);
    void reset_fetch() { fetch_line_ = UINT32_MAX; }

    // Hot state first (the cycle counters are at the top of the object).
    uint32_t fetch_line_ = UINT32_MAX;  // pc >> fetch_shift_ of the last checked line
    uint32_t fetch_shift_ = 5;
    uint32_t fetch_base_ = 0;      // address of the executing code page in its SRAM view
    Insn* fetch_page_ = nullptr;   // that page's decoded slots
    uint32_t fetch_page_offset_ = 0;  // that page's SRAM offset
    bool fetch_cached_ = false;    // fetch_base_ is in the cached view
    SramView sram_;
    uint32_t fast_sram_size_ = 0;  // sram_.size, or 0 while watchpoints force the full path
    bool dcache_on_ = false;
    uint32_t dline_shift_ = 5;
    CacheModel icache_;
    CacheModel dcache_;
    // line_fill_cycles of each, fixed with the configuration: a core without caches pays
    // the I-side one at every fetch line it enters (a division a line was 8 % of the ISS).
    uint32_t icache_fill_ = 0, dcache_fill_ = 0;
    // What a fetch not through the I-cache costs a line: icache_fill_, or nothing without a
    // line buffer (CoreConfig::uncached_fetch_fills_line).
    uint32_t uncached_fill_ = 0;

    // Posted writes: completion cycle of each outstanding slot (a ring).
    std::vector<uint64_t> write_slots_;
    uint32_t write_next_ = 0;
    uint64_t write_bus_free_ = 0;

    // Machine-mode CSRs.
    uint32_t mtvec_ = 0, mscratch_ = 0;
    uint32_t mepc_ = 0, mcause_ = 0, mtval_ = 0;
    int64_t mcycle_offset_ = 0, minstret_offset_ = 0;

    std::optional<FaultInfo> fault_;
    uint32_t exit_code_ = 0;
    uint64_t stall_cycles_ = 0;
    Counts counts_;
    uint32_t node_ = 0;
    std::function<uint32_t(sim::ActivityLog&, uint32_t)> namer_;
    std::vector<uint32_t> function_ids_;         // per SRAM word: 1 + its function's detail id, 0 unknown
    const sim::ActivityLog* function_ids_log_ = nullptr;
    Time stop_time_{};
    uint32_t watch_offset_ = UINT32_MAX;
    std::function<void()> watch_cb_;

    // Debugger state: breakpoints as SRAM word indices, watchpoints as SRAM offset ranges.
    struct Watch {
        uint32_t address, offset, length;
        WatchKind kind;
    };
    std::vector<uint32_t> breakpoints_;
    std::vector<Watch> watches_;
    std::optional<DebugStop> debug_pending_;  // a stop raised inside the burst, reported after it
    uint32_t skip_pc_ = UINT32_MAX;  // resuming from a stop here: its breakpoint/watchpoint lets it pass once
    bool debug_step_ = false;        // the debugger asked for one instruction
    bool debug_one_insn_ = false;    // this burst is that one instruction (a step or a step-over)
    bool debug_skip_ = false;        // ... during which breakpoints and watchpoints do not fire
    uint32_t debug_polls_ = 0;

    // Polling fast-forward (spin.cpp): what the counters read at the last pass through
    // a spin loop's closing branch, and in which burst (execute() call) that was.
    struct SpinPass {
        uint32_t head = UINT32_MAX;
        uint64_t burst = 0, cycle = 0, instret = 0, stall = 0;
        uint64_t icache_accesses = 0, icache_misses = 0, dcache_accesses = 0, dcache_misses = 0;
        uint64_t uncached_loads = 0, device_loads = 0, impure_loads = 0, traps = 0;
    };
    SpinPass spin_;
    uint32_t chain_left_ = 0;  // blocks a chain may still enter before the loop takes over (chain_to)
    // Device loads the bus did not call pure (Bus::pure_read), and the cycle of the last
    // device load, at which it synchronized the kernel.
    uint64_t impure_loads_ = 0;
    uint64_t device_load_cycle_ = 0;
    uint64_t spin_passes_skipped_ = 0;
    bool spin_skip_ = true;
    bool translate_ = true;
    // Running ahead (set_run_ahead): the cycle at which the last line fill that cost cycles
    // ended (the instruction starting there passed the loop's check before the fill); from
    // when this run's core is ahead of the horizon (Time::max(): it is not); and the SRAM
    // offsets [cached_lo_, cached_hi_) the caches have filled lines from since reset.
    bool run_ahead_ = false;
    uint64_t fetched_at_ = UINT64_MAX;
    Time ahead_from_ = Time::max();
    uint32_t cached_lo_ = UINT32_MAX, cached_hi_ = 0;
    // The limit of a burst whose horizon is `horizon` (cycles): further on when it may run ahead.
    uint64_t run_ahead_limit(uint64_t horizon) const;
    // An instruction that reaches what others share, starting at or past the horizon while
    // running ahead: takes back its cost and count and ends the burst (true), to run later.
    // Its start is before its end: a clock short of the horizon (or no running ahead, whose
    // horizon_limit_ is UINT64_MAX) decides at once, at every device and uncached access.
    bool hold_back() { return cycle_ >= horizon_limit_ && hold_back_past(); }
    bool hold_back_past();
    void note_fill(uint32_t line, uint32_t shift) {
        cached_lo_ = std::min(cached_lo_, line << shift);
        cached_hi_ = std::max(cached_hi_, (line + 1) << shift);
    }
    friend class Translator;  // reads the layout of what its code tests (translate.cpp)

    CoreConfig cfg_;
    Bus& bus_;
    // Decoded instructions (code_pages.cpp): a slot per SRAM word, kept per code page
    // and found when the pc first enters the page. A NIC's text is a few pages of its
    // SRAM, so the data pages never get slots (a node's memory), and a store to a page
    // without slots, the usual data store, has no decode to forget. A page is either the
    // core's own (in private_pages_, decoded lazily) or shared through code_pool_.
    std::vector<Insn*> code_pages_;
    std::vector<std::unique_ptr<Insn[]>> private_pages_;
    // The shared page each of the core's own copies was made from (by page index): its
    // blocks are built and translated there while their words are the same (share_block).
    std::vector<std::pair<uint32_t, Insn*>> copied_from_;
    CodePool* code_pool_ = nullptr;
    CodeKey code_key_;
    // The page's slots, found on first use (fetch_slow: each line the pc enters).
    Insn* code_page(uint32_t sram_offset) {
        const uint32_t index = sram_offset >> kCodePageShift;
        Insn* page = code_pages_[index];
        return page ? page : find_code_page(index);
    }
    Insn* find_code_page(uint32_t index);
    // The page's slots, made the core's own first if they were shared (copy on write).
    Insn* private_page(uint32_t index);
    // The page the core runs at `index` is its own, not one shared through the pool.
    bool own_page(uint32_t index) const { return code_pages_[index] == private_pages_[index].get(); }
    // A block just built in the core's copy of a shared page: if its words are still the
    // shared page's, its slots become that page's block, translated there (block.cpp).
    void share_block(uint32_t index, Insn* first, uint32_t n, uint64_t line_ends, uint32_t pc);
    void drop_code_pages();  // all of them, to be found again on next entry
    // The fetch state points into a page that was dropped or copied: fetch_slow finds it again.
    void lose_fetch_page() {
        reset_fetch();
        fetch_cached_ = false;  // fetch_hit would reuse fetch_page_
        fetch_page_ = nullptr;  // and so would fetch_next_line
    }
    // Code at `sram_offset` may have changed: decode it again when next executed.
    void forget_decode(uint32_t sram_offset);
    // forget_decode of a decoded slot: also forgets the blocks that cover it (block.cpp).
    void forget_slot(uint32_t sram_offset);
};

// Decoding (decode.cpp): raw bits -> handler and operands; never fails (unknown
// encodings become the illegal-instruction handler, which traps when executed). The
// cost is the instruction's own: fetching it is charged per line (Cpu::fetch_slow).
Insn decode(uint32_t raw, const CoreConfig& cfg);
extern const Handler kDecodeHandler;  // the "not yet decoded" slot handler
// What decode() reads of the config: cores whose configs agree here decode every word
// alike, so they may share decoded pages (CodeKey).
std::array<uint32_t, 6> decode_inputs(const CoreConfig& cfg);

inline void Cpu::forget_decode(uint32_t sram_offset) {
    // A data store into a code page finds its word never decoded (no block covers such
    // a word: blocks are made of decoded slots), so it costs one compare.
    // A shared page's slots are decoded until a store forgets one (forget_slot: in the
    // shared page where no block covers the word, else in the core's own copy).
    if (Insn* page = code_pages_[sram_offset >> kCodePageShift]) {
        const uint32_t word = (sram_offset & kCodePageMask) >> 2;
        if (page[word].fn != kDecodeHandler) [[unlikely]] forget_slot(sram_offset);
    }
}

// A taken branch or jump: inline, so branch handlers make no call on the fast path.
inline uint32_t Cpu::branch_to(uint32_t target) {
    if (target & 3) [[unlikely]] {
        trap(uint32_t(TrapCause::InstructionMisaligned), target);
        return pc_;  // the trap handler
    }
    cycle_ += cfg_.taken_branch_penalty;
    return target;
}

// ---- the call-free fast path of load and store handlers ----

inline bool Cpu::sram_hit(uint32_t addr, uint32_t size, uint32_t& off) {
    off = addr - sram_.cached_base;
    if ((addr & (size - 1)) || off >= fast_sram_size_) return false;
    if (!dcache_on_) {
        cycle_ += cfg_.sram_read_cycles;
        stall_cycles_ += cfg_.sram_read_cycles;
        return true;
    }
    if (!dcache_.resident(off >> dline_shift_)) return false;
    ++dcache_.accesses;
    return true;
}
inline bool Cpu::sram_store_hit(uint32_t addr, uint32_t size, uint32_t& off) {
    off = addr - sram_.cached_base;
    if (!dcache_on_ || (addr & (size - 1)) || off >= fast_sram_size_) return false;
    uint32_t line = off >> dline_shift_;
    if (!dcache_.resident(line)) return false;
    ++dcache_.accesses;
    dcache_.mark_dirty(line);
    forget_decode(off);  // code may have been overwritten
    return true;
}

inline bool Cpu::data_word_store(uint32_t addr, uint32_t size, uint32_t& off) const {
    off = addr - sram_.cached_base;
    return !(addr & (size - 1)) && off < fast_sram_size_ && undecoded(off);
}

inline bool Cpu::undecoded(uint32_t sram_offset) const {
    const Insn* page = code_pages_[sram_offset >> kCodePageShift];
    return !page || page[(sram_offset & kCodePageMask) >> 2].fn == kDecodeHandler;
}

inline bool Cpu::uncached_in_block(uint32_t addr, uint32_t size, uint32_t& off, const Insn& in) const {
    off = addr - sram_.uncached_base;
    return !(addr & (size - 1)) && off < fast_sram_size_ && cycle_ - in.block_cost < horizon_limit_;
}

inline bool Cpu::uncached_load_in_block(uint32_t addr, uint32_t size, uint32_t& off, const Insn& in) {
    if (!uncached_in_block(addr, size, off, in)) return false;
    ++counts_.uncached_loads;
    cycle_ += cfg_.sram_read_cycles;
    stall_cycles_ += cfg_.sram_read_cycles;
    return true;
}

inline bool Cpu::uncached_store_in_block(uint32_t addr, uint32_t size, uint32_t& off, const Insn& in) {
    if (!uncached_in_block(addr, size, off, in) || (off == watch_offset_ && watch_cb_) || !undecoded(off)) return false;
    ++counts_.uncached_stores;
    const uint64_t ahead = in.block_cost - in.cost;  // cycle_ past the loop's view of `in`
    posted_write(cfg_.sram_write_cycles, ahead);
    last_progress_ = cycle_ - ahead;  // progress(), as the loop has it
    return true;
}

inline bool Cpu::sram_data_store_hit(uint32_t addr, uint32_t size, uint32_t& off) {
    if (!dcache_on_ || !data_word_store(addr, size, off)) return false;
    const uint32_t line = off >> dline_shift_;
    if (!dcache_.resident(line)) return false;
    ++dcache_.accesses;
    dcache_.mark_dirty(line);
    return true;
}

template <bool kCross, bool kCharged>
inline uint32_t Cpu::block_next(const Insn& in, uint32_t next_pc) {
    const Insn& next = (&in)[1];
    // The block charged its whole base cost up front; the next slot's block (which ends
    // where this one does) holds what is left, so the block's last instruction starts at
    // cycle_ - (next.block_cost - next.block_pre). Should a cost paid on the way have
    // moved that to the horizon, the loop takes the rest one instruction at a time: it
    // stops where the first of them would start at the horizon.
    if ((kCharged && cycle_ + next.block_pre - next.block_cost >= limit_) || (kCross && !fetch_next_line(next_pc))) [[unlikely]] {
        cycle_ -= next.block_cost;
        instret_ -= next.block_n;
        return next_pc;
    }
    // A line fill (a fetch not through the I-cache) moved the rest of the block on. The
    // loop, whose check came before that fetch, runs `next` regardless; register-only slots
    // after it check nothing, so past the horizon now, `next` runs alone and the loop takes
    // the rest.
    if (kCross && cycle_ + next.block_pre - next.block_cost >= limit_) [[unlikely]] return leave_block(next, next_pc);
    return next.entry(*this, next, next_pc);
}

// The loop's step for the blocks path, taken from a block's closing branch or jump: the
// same checks in the same order (the horizon, the fetch line, the slot's block), so
// every counter and fetch is where the loop would leave it; any check that the loop
// would follow another way returns the pc to it. A chain enters at most kMaxChain
// blocks, so a build without tail calls (unoptimised) keeps its stack bounded.
inline uint32_t Cpu::chain_to(uint32_t pc) {
    if (cycle_ >= limit_ || chain_left_ == 0) return pc;
    pc_ = pc;
    // Another line of the page: fetched here when the loop's fetch would change nothing but
    // the line and its fixed fill (fetch_next_line); a miss or another page, by the loop.
    if ((pc >> fetch_shift_) != fetch_line_ && !fetch_next_line(pc)) return pc;
    Insn& in = fetch_page_[(pc - fetch_base_) >> 2];
    if (in.block_n != 0 && cycle_ + in.block_pre < limit_) [[likely]] {
        --chain_left_;
        return run_block(in, pc);
    }
    return chain_stopped(in, pc);
}

inline uint32_t Cpu::chain_stopped(Insn& in, uint32_t pc) {
    if (cycle_ < limit_) return pc;  // to be built, or near the horizon: the loop goes on from the pc
    // A line's fill (a fetch not through the I-cache) took the clock to the horizon after
    // the loop's check of it: the loop runs the instruction regardless, alone.
    return run_alone(in, pc);
}

// A block (block.cpp): the handlers of all but the last instruction run with the
// block's base cost and count already charged, and pc_ at the last one (they look at
// none of these); the last one runs with all three where the per-instruction loop
// would have them. The slots' entries chain from one to the next. Returns the next pc.
inline uint32_t Cpu::run_block(const Insn& in, uint32_t pc) {
    cycle_ += in.block_cost;
    instret_ += in.block_n;
    pc_ = pc + 4 * (in.block_n - 1u);
    return in.entry(*this, in, pc);
}

// ---- inline memory access: the cached SRAM view is the fast path ----

template <typename T>
inline bool Cpu::load(uint32_t addr, T& out) {
    if (addr & (sizeof(T) - 1)) [[unlikely]] {
        trap(uint32_t(TrapCause::LoadMisaligned), addr);
        return false;
    }
    uint32_t off = addr - sram_.cached_base;
    if (off < fast_sram_size_) [[likely]] {  // 0 while watchpoints are set: load_slow checks them
        if (dcache_on_) {
            dcache_lookup(off);
        } else {
            cycle_ += cfg_.sram_read_cycles;
            stall_cycles_ += cfg_.sram_read_cycles;
        }
        std::memcpy(&out, sram_.data + off, sizeof(T));
        return true;
    }
    uint32_t raw;
    if (!load_slow(addr, sizeof(T), raw)) return false;
    out = T(raw);
    return true;
}

template <typename T>
inline bool Cpu::store(uint32_t addr, T value) {
    if (addr & (sizeof(T) - 1)) [[unlikely]] {
        trap(uint32_t(TrapCause::StoreMisaligned), addr);
        return false;
    }
    uint32_t off = addr - sram_.cached_base;
    if (off < fast_sram_size_) [[likely]] {  // 0 while watchpoints are set: store_slow checks them
        if (dcache_on_) {
            dcache_.mark_dirty(dcache_lookup(off));
        } else {
            posted_write(cfg_.sram_write_cycles);
        }
        std::memcpy(sram_.data + off, &value, sizeof(T));
        forget_decode(off);  // code may have been overwritten
        return true;
    }
    return store_slow(addr, sizeof(T), uint32_t(value));
}

}  // namespace niclab::core
