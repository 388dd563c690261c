/*
 * Trace points (niclab/fw/trace.h, seed 000 §3.3): the ring, its descriptor, and
 * niclab_trace_point. Linked into a firmware only when it is built with tracing on
 * (niclab_firmware(... TRACE)); assembled per firmware because the ring size is a
 * per-firmware define.
 *
 * niclab_trace_point is entered with `jal t0, niclab_trace_point` and
 *   t0 = return address (the trace point's PC, top byte 0xFF as for all of SRAM)
 *   t1 = (value ^ 0xFF) << 24
 * and clobbers t0..t3. It increments tp, the free-running record count.
 */
#include "niclab/fw/trace.h"

#if NICLAB_TRACE_ENTRIES_LOG2 < 2 || NICLAB_TRACE_ENTRIES_LOG2 > 16
#error "NICLAB_TRACE_ENTRIES_LOG2 must be 2..16 (4 to 65536 records)"
#endif

    /* The host reads the ring; keep it out of the caches (seed 000 §3.3). The host
     * reads only the slots below the count in tp, so the ring needs no clearing at
     * boot (.uncached_noinit: link.ld, crt0.S). */
    .section .uncached_noinit.niclab_trace_ring, "aw", @nobits
    .balign 8
    .globl niclab_trace_ring
    .type niclab_trace_ring, @object
niclab_trace_ring:
    .zero NICLAB_TRACE_ENTRIES * NICLAB_TRACE_RECORD_BYTES
    .size niclab_trace_ring, . - niclab_trace_ring

    /* Only the host reads the descriptor: "R" (SHF_GNU_RETAIN) keeps it from
     * --gc-sections. */
    .section .rodata.niclab_trace, "aR"
    .balign 4
    .globl niclab_trace
    .type niclab_trace, @object
niclab_trace:
    .word NICLAB_TRACE_MAGIC
    .word NICLAB_TRACE_VERSION
    .word niclab_trace_ring
    .word NICLAB_TRACE_ENTRIES
    .word NICLAB_TRACE_INDEX_REG
    .size niclab_trace, . - niclab_trace

    .section .text.niclab_trace_point, "ax"
    .balign 4
    .globl niclab_trace_point
    .type niclab_trace_point, @function
niclab_trace_point:
    /* (count mod entries) << (32 - log2): the top bits of the slot number */
    slli    t2, tp, 32 - NICLAB_TRACE_ENTRIES_LOG2
    addi    tp, tp, 1           /* right after the read: the smallest window for an interrupt */
    lui     t3, %hi(niclab_trace_ring)
    srli    t2, t2, 29 - NICLAB_TRACE_ENTRIES_LOG2   /* slot * 8 */
    xor     t1, t1, t0          /* value << 24 | pc[23:0] */
    add     t2, t2, t3
    csrr    t3, mcycle
    sw      t3, %lo(niclab_trace_ring)(t2)
    sw      t1, %lo(niclab_trace_ring + 4)(t2)
    jr      t0
    .size niclab_trace_point, . - niclab_trace_point
