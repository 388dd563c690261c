/*
 * Trap entry for the trap tests: saves every register in a frame on the stack,
 * calls trap_handler(frame, mcause, mepc, mtval) in C, writes the mepc it returns,
 * restores the registers and returns with mret. A full frame lets the handler
 * resume anywhere (e.g. at the saved ra after a jump into unmapped memory).
 */
    .section .text.trap, "ax"
    .align 2                        /* mtvec direct mode: low two bits must be 0 */
    .globl trap_entry
    .type trap_entry, @function
trap_entry:
    addi    sp, sp, -128            /* frame: x[i] at 4*i; x0 slot unused */
    .irp n, 1,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    sw      x\n, 4*\n(sp)
    .endr
    addi    t0, sp, 128             /* the interrupted sp */
    sw      t0, 8(sp)
    mv      a0, sp
    csrr    a1, mcause
    csrr    a2, mepc
    csrr    a3, mtval
    call    trap_handler
    csrw    mepc, a0
    .irp n, 1,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    lw      x\n, 4*\n(sp)
    .endr
    addi    sp, sp, 128
    mret
    .size trap_entry, . - trap_entry
