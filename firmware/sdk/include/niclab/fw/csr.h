/*
 * RISC-V machine-mode CSRs used by niclab firmware (RV32IM + Zicsr, M-mode only):
 * bit positions from the privileged spec, and access macros. The CSR name is pasted
 * into the instruction, so it must be a literal name or number: fw_csr_read(mcause).
 */
#ifndef NICLAB_FW_CSR_H
#define NICLAB_FW_CSR_H

#include <stdint.h>

#define FW_MSTATUS_MIE      (1u << 3)   /* global machine interrupt enable */
#define FW_MSTATUS_MPIE     (1u << 7)   /* MIE before the last trap; restored by mret */
#define FW_MIE_MSIE         (1u << 3)
#define FW_MIE_MTIE         (1u << 7)   /* timer interrupt enable (mtime >= mtimecmp) */
#define FW_MIE_MEIE         (1u << 11)  /* external interrupt enable (host doorbell) */
#define FW_MIP_MTIP         (1u << 7)
#define FW_MIP_MEIP         (1u << 11)

#define FW_MCAUSE_INTERRUPT         0x80000000u
#define FW_CAUSE_INSN_MISALIGNED    0u
#define FW_CAUSE_INSN_ACCESS        1u
#define FW_CAUSE_ILLEGAL_INSN       2u
#define FW_CAUSE_BREAKPOINT         3u
#define FW_CAUSE_LOAD_MISALIGNED    4u
#define FW_CAUSE_LOAD_ACCESS        5u
#define FW_CAUSE_STORE_MISALIGNED   6u
#define FW_CAUSE_STORE_ACCESS       7u
#define FW_CAUSE_ECALL_M            11u
#define FW_IRQ_TIMER                (FW_MCAUSE_INTERRUPT | 7u)
#define FW_IRQ_EXTERNAL             (FW_MCAUSE_INTERRUPT | 11u)

#define FW_STR_(x) #x
#define FW_STR(x) FW_STR_(x)

#define fw_csr_read(csr) ({                                              \
    uint32_t v_;                                                         \
    __asm__ volatile("csrr %0, " FW_STR(csr) : "=r"(v_));                \
    v_; })
#define fw_csr_write(csr, val)                                           \
    __asm__ volatile("csrw " FW_STR(csr) ", %0" :: "rK"((uint32_t)(val)) : "memory")
#define fw_csr_set(csr, bits)                                            \
    __asm__ volatile("csrs " FW_STR(csr) ", %0" :: "rK"((uint32_t)(bits)) : "memory")
#define fw_csr_clear(csr, bits)                                          \
    __asm__ volatile("csrc " FW_STR(csr) ", %0" :: "rK"((uint32_t)(bits)) : "memory")

#endif /* NICLAB_FW_CSR_H */
