// RV32IM + Zicsr decoder (unprivileged spec ch. 2, 7, 13; privileged spec ch. 3):
// raw bits -> handler, operands and base cost. Runs once per instruction word until
// the word is overwritten; execution never looks at the raw bits again.
#include <algorithm>

#include "handlers.hpp"

namespace niclab::core {

const Handler kDecodeHandler = &op::decode;

namespace {

int32_t imm_i(uint32_t r) { return int32_t(r) >> 20; }
int32_t imm_s(uint32_t r) { return ((int32_t(r) >> 25) << 5) | int32_t((r >> 7) & 31); }
int32_t imm_b(uint32_t r) {
    return ((int32_t(r) >> 31) << 12) | int32_t(((r >> 7) & 1) << 11) |
           int32_t(((r >> 25) & 63) << 5) | int32_t(((r >> 8) & 15) << 1);
}
int32_t imm_u(uint32_t r) { return int32_t(r & 0xFFFFF000u); }
int32_t imm_j(uint32_t r) {
    return ((int32_t(r) >> 31) << 20) | int32_t(r & 0xFF000u) | int32_t(((r >> 20) & 1) << 11) |
           int32_t(((r >> 21) & 1023) << 1);
}

struct Fields {
    uint32_t raw, opcode, rd, f3, rs1, rs2, f7;
};

Handler op_imm(const Fields& f) {
    switch (f.f3) {
        case 0: return op::addi;
        case 2: return op::slti;
        case 3: return op::sltiu;
        case 4: return op::xori;
        case 6: return op::ori;
        case 7: return op::andi;
        case 1: return f.f7 == 0 ? op::slli : nullptr;
        case 5: return f.f7 == 0 ? op::srli : f.f7 == 0x20 ? op::srai : nullptr;
    }
    return nullptr;
}

Handler op_reg(const Fields& f) {
    static constexpr Handler base[8] = {op::add, op::sll, op::slt, op::sltu, op::xor_, op::srl, op::or_, op::and_};
    static constexpr Handler muldiv[8] = {op::mul, op::mulh, op::mulhsu, op::mulhu,
                                          op::div, op::divu, op::rem, op::remu};
    if (f.f7 == 0) return base[f.f3];
    if (f.f7 == 1) return muldiv[f.f3];
    if (f.f7 == 0x20) return f.f3 == 0 ? op::sub : f.f3 == 5 ? op::sra : nullptr;
    return nullptr;
}

Handler op_system(const Fields& f) {
    static constexpr Handler csr[8] = {nullptr, op::csrrw, op::csrrs, op::csrrc,
                                       nullptr, op::csrrwi, op::csrrsi, op::csrrci};
    if (f.f3 != 0) return csr[f.f3];
    switch (f.raw) {
        case 0x00000073: return op::ecall;
        case 0x00100073: return op::ebreak;
        case 0x30200073: return op::mret;
        case 0x10500073: return op::wfi;
    }
    return nullptr;
}

}  // namespace

std::array<uint32_t, 6> decode_inputs(const CoreConfig& cfg) {
    return {cfg.cpi_alu, cfg.cpi_load, cfg.cpi_store, cfg.cpi_mul, cfg.cpi_div, cfg.cpi_csr};
}

Insn decode(uint32_t raw, const CoreConfig& cfg) {
    Fields f{raw, raw & 0x7F, (raw >> 7) & 31, (raw >> 12) & 7, (raw >> 15) & 31, (raw >> 20) & 31, raw >> 25};
    Insn in{nullptr, 0, uint8_t(f.rd == 0 ? 32 : f.rd), uint8_t(f.rs1), uint8_t(f.rs2), uint8_t(cfg.cpi_alu)};
    uint32_t cost = cfg.cpi_alu;
    static constexpr Handler branches[8] = {op::beq, op::bne, nullptr, nullptr, op::blt, op::bge, op::bltu, op::bgeu};
    static constexpr Handler loads[8] = {op::lb, op::lh, op::lw, nullptr, op::lbu, op::lhu, nullptr, nullptr};
    static constexpr Handler stores[8] = {op::sb, op::sh, op::sw, nullptr, nullptr, nullptr, nullptr, nullptr};

    switch (f.opcode) {
        case 0x37: in.fn = op::lui; in.imm = imm_u(raw); break;
        case 0x17: in.fn = op::auipc; in.imm = imm_u(raw); break;
        case 0x6F: in.fn = op::jal; in.imm = imm_j(raw); break;
        case 0x67: in.fn = f.f3 == 0 ? op::jalr : nullptr; in.imm = imm_i(raw); break;
        case 0x63: in.fn = branches[f.f3]; in.imm = imm_b(raw); break;
        case 0x03: in.fn = loads[f.f3]; in.imm = imm_i(raw); cost = cfg.cpi_load; break;
        case 0x23: in.fn = stores[f.f3]; in.imm = imm_s(raw); cost = cfg.cpi_store; break;
        case 0x13:
            in.fn = op_imm(f);
            in.imm = (f.f3 == 1 || f.f3 == 5) ? int32_t(f.rs2) : imm_i(raw);  // shamt
            break;
        case 0x33:
            in.fn = op_reg(f);
            if (f.f7 == 1) cost = f.f3 < 4 ? cfg.cpi_mul : cfg.cpi_div;
            break;
        case 0x0F: in.fn = f.f3 == 0 ? op::fence : f.f3 == 1 ? op::fence_i : nullptr; break;
        case 0x73:
            in.fn = op_system(f);
            in.imm = int32_t(raw >> 20);  // CSR number
            if (f.f3 != 0) cost = cfg.cpi_csr;
            break;
    }
    if (!in.fn) {
        in.fn = op::illegal;
        in.imm = int32_t(raw);
    }
    in.cost = uint8_t(std::min<uint32_t>(cost, 255));
    return in;
}

}  // namespace niclab::core
