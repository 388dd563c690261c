#pragma once
// Hand encoders for the few RV32IM/Zicsr instructions the direct core tests need
// (unprivileged spec ch. 2 formats), so the tests do not depend on an assembler.
#include <cstdint>

namespace niclab::test::rv {

constexpr uint32_t r_type(uint32_t f7, uint32_t rs2, uint32_t rs1, uint32_t f3, uint32_t rd, uint32_t op) {
    return (f7 << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | op;
}
constexpr uint32_t i_type(int32_t imm, uint32_t rs1, uint32_t f3, uint32_t rd, uint32_t op) {
    return (uint32_t(imm & 0xFFF) << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | op;
}
constexpr uint32_t s_type(int32_t imm, uint32_t rs2, uint32_t rs1, uint32_t f3, uint32_t op) {
    uint32_t u = uint32_t(imm);
    return (((u >> 5) & 0x7F) << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) | ((u & 31) << 7) | op;
}
constexpr uint32_t b_type(int32_t off, uint32_t rs2, uint32_t rs1, uint32_t f3) {
    uint32_t u = uint32_t(off);
    return (((u >> 12) & 1) << 31) | (((u >> 5) & 0x3F) << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) |
           (((u >> 1) & 0xF) << 8) | (((u >> 11) & 1) << 7) | 0x63;
}

constexpr uint32_t addi(uint32_t rd, uint32_t rs1, int32_t imm) { return i_type(imm, rs1, 0, rd, 0x13); }
constexpr uint32_t nop() { return addi(0, 0, 0); }
constexpr uint32_t lui(uint32_t rd, uint32_t imm20) { return (imm20 << 12) | (rd << 7) | 0x37; }
constexpr uint32_t add(uint32_t rd, uint32_t rs1, uint32_t rs2) { return r_type(0, rs2, rs1, 0, rd, 0x33); }
constexpr uint32_t xor_(uint32_t rd, uint32_t rs1, uint32_t rs2) { return r_type(0, rs2, rs1, 4, rd, 0x33); }
constexpr uint32_t andi(uint32_t rd, uint32_t rs1, int32_t imm) { return i_type(imm, rs1, 7, rd, 0x13); }
constexpr uint32_t slli(uint32_t rd, uint32_t rs1, uint32_t shamt) { return i_type(int32_t(shamt), rs1, 1, rd, 0x13); }
constexpr uint32_t div(uint32_t rd, uint32_t rs1, uint32_t rs2) { return r_type(1, rs2, rs1, 4, rd, 0x33); }
constexpr uint32_t lw(uint32_t rd, uint32_t rs1, int32_t imm) { return i_type(imm, rs1, 2, rd, 0x03); }
constexpr uint32_t sw(uint32_t rs2, uint32_t rs1, int32_t imm) { return s_type(imm, rs2, rs1, 2, 0x23); }
constexpr uint32_t and_(uint32_t rd, uint32_t rs1, uint32_t rs2) { return r_type(0, rs2, rs1, 7, rd, 0x33); }
constexpr uint32_t sub(uint32_t rd, uint32_t rs1, uint32_t rs2) { return r_type(0x20, rs2, rs1, 0, rd, 0x33); }
constexpr uint32_t sll(uint32_t rd, uint32_t rs1, uint32_t rs2) { return r_type(0, rs2, rs1, 1, rd, 0x33); }
constexpr uint32_t slt(uint32_t rd, uint32_t rs1, uint32_t rs2) { return r_type(0, rs2, rs1, 2, rd, 0x33); }
constexpr uint32_t mul(uint32_t rd, uint32_t rs1, uint32_t rs2) { return r_type(1, rs2, rs1, 0, rd, 0x33); }
constexpr uint32_t srai(uint32_t rd, uint32_t rs1, uint32_t shamt) { return i_type(int32_t(0x400 | shamt), rs1, 5, rd, 0x13); }
constexpr uint32_t sltiu(uint32_t rd, uint32_t rs1, int32_t imm) { return i_type(imm, rs1, 3, rd, 0x13); }
constexpr uint32_t lh(uint32_t rd, uint32_t rs1, int32_t imm) { return i_type(imm, rs1, 1, rd, 0x03); }
constexpr uint32_t lbu(uint32_t rd, uint32_t rs1, int32_t imm) { return i_type(imm, rs1, 4, rd, 0x03); }
constexpr uint32_t sh(uint32_t rs2, uint32_t rs1, int32_t imm) { return s_type(imm, rs2, rs1, 1, 0x23); }
constexpr uint32_t beq(uint32_t rs1, uint32_t rs2, int32_t off) { return b_type(off, rs2, rs1, 0); }
constexpr uint32_t blt(uint32_t rs1, uint32_t rs2, int32_t off) { return b_type(off, rs2, rs1, 4); }
constexpr uint32_t bne(uint32_t rs1, uint32_t rs2, int32_t off) { return b_type(off, rs2, rs1, 1); }
constexpr uint32_t jal(uint32_t rd, int32_t off) {
    uint32_t u = uint32_t(off);
    return (((u >> 20) & 1) << 31) | (((u >> 1) & 0x3FF) << 21) | (((u >> 11) & 1) << 20) |
           (((u >> 12) & 0xFF) << 12) | (rd << 7) | 0x6F;
}
constexpr uint32_t jalr(uint32_t rd, uint32_t rs1, int32_t imm) { return i_type(imm, rs1, 0, rd, 0x67); }
constexpr uint32_t csrrw(uint32_t rd, uint32_t csr, uint32_t rs1) { return i_type(int32_t(csr), rs1, 1, rd, 0x73); }
constexpr uint32_t csrrs(uint32_t rd, uint32_t csr, uint32_t rs1) { return i_type(int32_t(csr), rs1, 2, rd, 0x73); }
constexpr uint32_t csrr(uint32_t rd, uint32_t csr) { return csrrs(rd, csr, 0); }
constexpr uint32_t fence_i() { return 0x0000100F; }
constexpr uint32_t wfi() { return 0x10500073; }
constexpr uint32_t mret() { return 0x30200073; }

// CSR numbers (privileged spec table 2.5).
constexpr uint32_t kMstatus = 0x300, kMie = 0x304, kMtvec = 0x305, kMepc = 0x341, kMcause = 0x342,
                   kMtval = 0x343, kMcycle = 0xB00, kCycle = 0xC00;

}  // namespace niclab::test::rv
