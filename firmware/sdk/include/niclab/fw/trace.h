/*
 * niclab firmware trace points (seed 000 §3.3).
 *
 *   trace();            record the trace point's address and a timestamp
 *   trace_val(v);       ... and an 8-bit user value v
 *
 * Each trace point writes one eight-byte record into a ring buffer in uncached SRAM:
 *
 *   word 0   low 32 bits of mcycle (core cycles) when the record was made
 *   word 1   bits 31..24: the value; bits 23..0: the low 24 bits of the trace point's
 *            address, i.e. of the instruction after the call, inside the caller. All
 *            SRAM addresses have 0xFF in their top byte (hw.h), so the host rebuilds
 *            the PC as 0xFF000000 | bits.
 *
 * The ring index lives in a dedicated register, tp (x4): a free-running count of the
 * records ever written. The record goes to slot count % NICLAB_TRACE_ENTRIES; the host
 * reads tp as the core's register through the debug path (no store of the index per
 * trace point) and knows the ring wrapped when count > entries (oldest = count -
 * entries). tp is the thread pointer of the psABI: GCC's RISC-V port never allocates
 * it (it is a fixed register, like gp), freestanding firmware has no TLS, and libgcc
 * does not touch it, so no -ffixed-<reg> is needed and no code pays for the reservation.
 *
 * The host finds the ring through the descriptor `niclab_trace` (struct below), a
 * symbol in .rodata of the image.
 *
 * Cost, when tracing is on: the call site loads one constant and jumps to
 * niclab_trace_point with the link in t0, the RISC-V alternate link register
 * (psABI: x5). The seed used the PPC link register the same way; taking t0 rather
 * than ra means a leaf function with trace points does not have to save ra. The
 * trace point clobbers t0..t3 only, and its two stores are posted writes (the core
 * does not wait for them, seed 000 §3.3). With the SeaStar preset that is 16 core
 * cycles = 32 ns per trace point (tests/cpp/trace/test_trace_cost.cpp derives the
 * exact count from the preset's parameters); a value that is not a compile-time
 * constant costs two more instructions to place.
 *
 * When tracing is off (the default: build with niclab_firmware(... TRACE) or
 * -DNICLAB_TRACE=1 to turn it on) trace() and trace_val() compile to nothing: the
 * firmware is instruction for instruction the one without trace points.
 *
 * Caveats: the compiler may move ordinary loads and stores across a trace point (it
 * is not a memory barrier, so it does not perturb the code around it), and inlining
 * or tail calls can attribute a trace point to another function (seed 000 §3.3).
 * A trace point in an interrupt handler that interrupts a trace point in the window
 * of one instruction between its read and increment of tp overwrites that record.
 */
#ifndef NICLAB_FW_TRACE_H
#define NICLAB_FW_TRACE_H

#ifndef NICLAB_TRACE
#define NICLAB_TRACE 0
#endif

/* Ring size: 2^NICLAB_TRACE_ENTRIES_LOG2 records of 8 bytes (default 1024 = 8 KB),
 * set per firmware with niclab_firmware(... TRACE TRACE_ENTRIES n). */
#ifndef NICLAB_TRACE_ENTRIES_LOG2
#define NICLAB_TRACE_ENTRIES_LOG2 10
#endif
#define NICLAB_TRACE_ENTRIES (1 << NICLAB_TRACE_ENTRIES_LOG2)
#define NICLAB_TRACE_RECORD_BYTES 8

/* Descriptor layout, shared with the host reader (cpp/src/trace/ring_reader.cpp). */
#define NICLAB_TRACE_MAGIC      0x4354524E  /* "NRTC" little-endian: 'N','R','T','C' */
#define NICLAB_TRACE_VERSION    1
#define NICLAB_TRACE_INDEX_REG  4           /* tp = x4 */
#define NICLAB_TRACE_DESC_MAGIC     0
#define NICLAB_TRACE_DESC_VERSION   4
#define NICLAB_TRACE_DESC_RING      8
#define NICLAB_TRACE_DESC_ENTRIES   12
#define NICLAB_TRACE_DESC_INDEX_REG 16
#define NICLAB_TRACE_DESC_SIZE      20

#ifndef __ASSEMBLER__
#include <stdint.h>

struct niclab_trace_desc {
    uint32_t magic;      /* NICLAB_TRACE_MAGIC */
    uint32_t version;    /* NICLAB_TRACE_VERSION */
    uint32_t ring;       /* address of the ring (uncached SRAM view) */
    uint32_t entries;    /* records in the ring, a power of two */
    uint32_t index_reg;  /* register holding the record count: 4 (tp) */
};

#if NICLAB_TRACE
extern const struct niclab_trace_desc niclab_trace;

/* Macros, not inline functions, so that the call instruction carries the caller's
 * source line in the DWARF line table (tracedump --source shows it).
 *
 * The call passes ((value ^ 0xFF) << 24) in t1: niclab_trace_point XORs it with the
 * return address, whose top byte is 0xFF, which yields value << 24 | pc[23:0] in one
 * instruction. For a constant value the compiler makes it a single lui. */
#define trace_val(value)                                                              \
    do {                                                                              \
        register uint32_t niclab_trace_word_ __asm__("t1") =                          \
            (uint32_t)(uint8_t)((uint8_t)(value) ^ 0xFFu) << 24;                      \
        __asm__ volatile("jal t0, niclab_trace_point"                                 \
                         : "+r"(niclab_trace_word_) : : "t0", "t2", "t3");            \
    } while (0)
#else
/* Off: nothing is emitted; the value is still evaluated, as a function argument would be. */
#define trace_val(value) do { (void)(value); } while (0)
#endif
#define trace() trace_val(0)

#endif /* __ASSEMBLER__ */
#endif /* NICLAB_FW_TRACE_H */
