#pragma once
// Timing parameters of the NIC core. Values come from a preset (system/presets),
// where each one cites its source; the defaults here are the SeaStar's.
#include <cstdint>

namespace niclab::core {

struct CacheConfig {
    uint32_t size_bytes = 32 * 1024;
    uint32_t line_bytes = 32;
    uint32_t ways = 64;
};

struct CoreConfig {
    int64_t clock_mhz = 500;
    uint32_t hart_id = 0;

    // Base cycles per instruction class (issue cost, before memory latency).
    uint32_t cpi_alu = 1;
    uint32_t cpi_load = 1;
    uint32_t cpi_store = 1;
    uint32_t cpi_mul = 4;
    uint32_t cpi_div = 33;
    uint32_t cpi_csr = 1;
    uint32_t taken_branch_penalty = 2;  // bubble after a taken branch or a jump
    uint32_t trap_penalty = 4;          // pipeline flush on trap entry / mret

    CacheConfig icache;
    CacheConfig dcache;

    // SRAM over the processor local bus, in core cycles.
    uint32_t sram_read_cycles = 8;       // uncached load, or a fetch with the I-cache off
    // With the I-cache off (or from the uncached view), does a fetch read its whole line
    // into a line buffer, a line fill each time the pc enters another line (the
    // PPC440's I-cache controller does, seed 001's SeaStar)? Without, the core takes each
    // instruction from SRAM within its issue cycle and a fetch adds nothing (the LANai).
    bool uncached_fetch_fills_line = true;
    uint32_t sram_write_cycles = 4;      // bus occupancy of one posted store
    uint32_t line_beat_cycles = 2;       // each further bus beat of a line fill
    uint32_t bus_bytes_per_beat = 16;    // 128-bit PLB
    uint32_t posted_writes = 4;          // outstanding stores before the core stalls

    // Stop the core with a watchdog FirmwareFault when it makes no observable
    // progress (a store outside cached SRAM, wfi, a trap) for this long. 0 = off.
    uint64_t watchdog_cycles = 0;
};

}  // namespace niclab::core
