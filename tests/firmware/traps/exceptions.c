/*
 * Synchronous exceptions of the NIC core (RV32IM, M-mode, no C extension): each
 * case runs one trapping instruction at a labelled site; the handler records
 * mcause/mepc/mtval and resumes after it. Expected output: exceptions.expected.
 * Causes and mtval follow the RISC-V privileged spec: mtval is the faulting
 * address for misaligned and access-fault exceptions, the instruction bits for an
 * illegal instruction, 0 for ecall. Misaligned loads and stores trap (the spec
 * also allows handling them in hardware; the NIC core does not).
 *
 * Cross-check: exceptions.qemu.elf under QEMU (-cpu rv32,c=off,s=off,...) prints
 * the same lines except the five misaligned ones (QEMU performs misaligned
 * accesses) and so the trap count.
 */
#include "trap_support.h"

#define NOINLINE __attribute__((noinline, noclone))
#define UNMAPPED 0xE0000000u        /* host window 14: the driver opened no window */

extern char at_ecall[], at_ebreak[], at_illegal[], at_csr_custom[], at_csr_satp[],
    at_lw_misaligned[], at_lh_misaligned[], at_sw_misaligned[], at_sh_misaligned[],
    at_load_fault[], at_store_fault[], at_jump_misaligned[];

static uint32_t buf[4];

static NOINLINE void do_ecall(void) { __asm__ volatile(TRAP_SITE(at_ecall) "ecall" ::: "memory"); }
static NOINLINE void do_ebreak(void) { __asm__ volatile(TRAP_SITE(at_ebreak) "ebreak" ::: "memory"); }

/* custom-0 major opcode (0x0b): not part of RV32IM, so illegal. */
static NOINLINE void do_illegal(void)
{
    __asm__ volatile(TRAP_SITE(at_illegal) ".word 0xdead000b" ::: "memory");
}

/* CSRs the core does not have: a custom one, and satp (no S-mode, no paging). */
static NOINLINE void do_csr_custom(void)
{
    __asm__ volatile(TRAP_SITE(at_csr_custom) "csrr t0, 0x7c0" ::: "t0", "memory");
}
static NOINLINE void do_csr_satp(void)
{
    __asm__ volatile(TRAP_SITE(at_csr_satp) "csrr t0, satp" ::: "t0", "memory");
}

static NOINLINE void do_lw_misaligned(uintptr_t a)
{
    __asm__ volatile("mv t0, %0\n" TRAP_SITE(at_lw_misaligned) "lw t1, 0(t0)"
                     :: "r"(a) : "t0", "t1", "memory");
}
static NOINLINE void do_lh_misaligned(uintptr_t a)
{
    __asm__ volatile("mv t0, %0\n" TRAP_SITE(at_lh_misaligned) "lh t1, 0(t0)"
                     :: "r"(a) : "t0", "t1", "memory");
}
static NOINLINE void do_sw_misaligned(uintptr_t a)
{
    __asm__ volatile("mv t0, %0\n" TRAP_SITE(at_sw_misaligned) "sw t0, 0(t0)"
                     :: "r"(a) : "t0", "memory");
}
static NOINLINE void do_sh_misaligned(uintptr_t a)
{
    __asm__ volatile("mv t0, %0\n" TRAP_SITE(at_sh_misaligned) "sh t0, 0(t0)"
                     :: "r"(a) : "t0", "memory");
}
static NOINLINE void do_load_fault(void)
{
    __asm__ volatile("li t0, %0\n" TRAP_SITE(at_load_fault) "lw t1, 0(t0)"
                     :: "i"(UNMAPPED) : "t0", "t1", "memory");
}
static NOINLINE void do_store_fault(void)
{
    __asm__ volatile("li t0, %0\n" TRAP_SITE(at_store_fault) "sw t0, 0(t0)"
                     :: "i"(UNMAPPED) : "t0", "memory");
}

/* Without the C extension instructions are 4-byte aligned, so a jump to an
 * address that is 2 mod 4 raises instruction-address-misaligned on the jump itself
 * (mepc = the jalr, mtval = the target; rd is not written). */
static NOINLINE void do_jump_misaligned(void)
{
    __asm__ volatile("la t0, 1f + 2\n" TRAP_SITE(at_jump_misaligned) "jalr zero, 0(t0)\n"
                     "1: nop\n\tnop" ::: "t0", "memory");
}

/* The fetch at UNMAPPED faults: mepc = mtval = UNMAPPED. The handler resumes at
 * ra, just after the jalr, which completed normally. */
static NOINLINE void do_jump_unmapped(void)
{
    __asm__ volatile("li t0, %0\n\tjalr ra, 0(t0)" :: "i"(UNMAPPED) : "t0", "ra", "memory");
}

int main(void)
{
    fw_set_running();
    trap_install();
    uintptr_t b = (uintptr_t)buf;

    do_ecall();
    trap_report("ecall", (uintptr_t)at_ecall);
    trap_mtval_hex();
    do_ebreak();
    trap_report("ebreak", (uintptr_t)at_ebreak);
    /* The spec allows mtval = 0 or the ebreak's address (QEMU: 0, Spike: pc). */
    fw_console_puts(trap_last.tval == 0 || trap_last.tval == trap_last.epc
                    ? " mtval=0-or-epc\n" : " mtval=unexpected\n");
    do_illegal();
    trap_report("illegal", (uintptr_t)at_illegal);
    trap_mtval_hex();
    do_csr_custom();
    trap_report("csr_0x7c0", (uintptr_t)at_csr_custom);
    trap_mtval_hex();
    do_csr_satp();
    trap_report("csr_satp", (uintptr_t)at_csr_satp);
    trap_mtval_hex();
    do_lw_misaligned(b + 1);
    trap_report("lw_misaligned", (uintptr_t)at_lw_misaligned);
    trap_mtval_rel(b, "buf");
    do_lw_misaligned(b + 2);
    trap_report("lw_misaligned", (uintptr_t)at_lw_misaligned);
    trap_mtval_rel(b, "buf");
    do_lh_misaligned(b + 3);
    trap_report("lh_misaligned", (uintptr_t)at_lh_misaligned);
    trap_mtval_rel(b, "buf");
    do_sw_misaligned(b + 6);
    trap_report("sw_misaligned", (uintptr_t)at_sw_misaligned);
    trap_mtval_rel(b, "buf");
    do_sh_misaligned(b + 5);
    trap_report("sh_misaligned", (uintptr_t)at_sh_misaligned);
    trap_mtval_rel(b, "buf");
    do_load_fault();
    trap_report("load_fault", (uintptr_t)at_load_fault);
    trap_mtval_hex();
    do_store_fault();
    trap_report("store_fault", (uintptr_t)at_store_fault);
    trap_mtval_hex();
    do_jump_misaligned();
    trap_report("jump_misaligned", (uintptr_t)at_jump_misaligned);
    trap_mtval_rel((uintptr_t)at_jump_misaligned, "site");
    do_jump_unmapped();
    trap_report("jump_unmapped", UNMAPPED);
    trap_mtval_hex();

    /* Aligned accesses next to the misaligned ones do not trap. */
    uint32_t before = trap_last.count;
    volatile uint16_t *h = (volatile uint16_t *)(b + 2);
    *h = 0x1234;
    uint32_t v = *h;
    fw_console_puts("aligned halfword:");
    print_kv_hex("value", v);
    print_kv_dec("traps", trap_last.count - before);
    fw_console_puts("\n");
    fw_console_puts("traps taken:");
    print_kv_dec("count", trap_last.count);
    fw_console_puts("\ndone\n");
    fw_halt(0);
}
