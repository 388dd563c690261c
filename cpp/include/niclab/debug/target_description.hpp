#pragma once
// What GDB is told about the core (GDB manual, "Target Descriptions"; the RISC-V
// features): riscv:rv32 with the org.gnu.gdb.riscv.cpu feature (x0..x31, pc) and an
// org.gnu.gdb.riscv.csr feature with the CSRs the core implements, so `info registers`,
// `p $mcause` and `info all-registers` work. Register numbers follow GDB's own RISC-V
// numbering: x0..x31 are 0..31, pc is 32, a CSR is 65 + its CSR number.
#include <cstdint>
#include <string>

namespace niclab::debug {

constexpr uint32_t kRegPc = 32;
constexpr uint32_t kRegFirstCsr = 65;
constexpr uint32_t kGeneralRegs = 33;  // what a `g` packet carries: x0..x31, pc

const std::string& riscv32_target_xml();

}  // namespace niclab::debug
