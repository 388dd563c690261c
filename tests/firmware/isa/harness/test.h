/*
 * Macros for the ISA tests. A test is assembly between TEST_BEGIN and TEST_END that
 * computes values into registers and reports each with SIG:
 *
 *     TEST_BEGIN
 *         li   a0, 1
 *         addi a0, a0, -2
 *         SIG  addi_neg, a0        # prints "addi_neg: 0xffffffff"
 *     TEST_END                     # prints "done" and halts with exit code 0
 *
 * SIG preserves every register, so a test may keep values live across it; the one
 * rule is that tests leave sp alone (SIG and the harness use the stack). Values
 * that depend on where the code is linked (return addresses, auipc) must be
 * reported relative to a label, so both platforms print the same text.
 */
#ifndef ISA_TEST_H
#define ISA_TEST_H

.macro TEST_BEGIN
    .text
    .globl test_main
    .type test_main, @function
test_main:
.endm

.macro TEST_END
    j       test_done
.endm

/* Prints "<name>: 0x<8 hex digits>\n" with the value of \reg. */
.macro SIG name, reg
    addi    sp, sp, -16
    sw      ra, 0(sp)
    sw      a0, 4(sp)
    sw      a1, 8(sp)
    mv      a0, \reg            /* before a1 is overwritten: \reg may be a1 */
    la      a1, .Lsig_name\@
    call    sig_print
    lw      ra, 0(sp)
    lw      a0, 4(sp)
    lw      a1, 8(sp)
    addi    sp, sp, 16
    .pushsection .rodata.sig_names, "a"
.Lsig_name\@:
    .asciz  "\name"
    .popsection
.endm

#endif /* ISA_TEST_H */
