#pragma once
// Why a NIC core stopped with an error. The core records a FaultInfo; the NIC
// symbolizes the PC and raises FirmwareFault, so the host process never crashes.
#include <cstdint>
#include <string>

#include "niclab/sim/error.hpp"
#include "niclab/sim/time.hpp"

namespace niclab::core {

// RISC-V mcause exception codes (privileged spec, table 3.6).
enum class TrapCause : uint32_t {
    InstructionMisaligned = 0,
    InstructionAccessFault = 1,
    IllegalInstruction = 2,
    Breakpoint = 3,
    LoadMisaligned = 4,
    LoadAccessFault = 5,
    StoreMisaligned = 6,
    StoreAccessFault = 7,
    EcallM = 11,
};
const char* trap_cause_name(uint32_t mcause);

enum class FaultKind {
    UnhandledTrap,  // a trap with no handler installed (mtvec == 0)
    DoubleFault,    // the trap handler itself cannot be fetched (pc = mepc, tval = handler)
    Watchdog,       // no progress for the configured time
    BootTimeout,    // the firmware never set its running flag
    Panic,          // the firmware gave up (fw_panic): `message` says why
};
const char* fault_kind_name(FaultKind k);

struct FaultInfo {
    FaultInfo() = default;
    FaultInfo(FaultKind kind_, uint32_t pc_, uint32_t cause_, uint32_t tval_, Time time_, std::string message_ = {})
        : kind(kind_), pc(pc_), cause(cause_), tval(tval_), time(time_), message(std::move(message_)) {}

    FaultKind kind = FaultKind::UnhandledTrap;
    uint32_t pc = 0;
    uint32_t cause = 0;   // mcause for traps
    uint32_t tval = 0;    // faulting address or instruction bits
    Time time{};
    std::string message;  // Panic: the firmware's reason
    std::string summary() const;
    std::string hex_pc() const;  // "illegal instruction at pc 0x... (tval 0x...)"
};

// A firmware fault stopped a NIC. The message names the PC with its function and
// source line, the cause and the faulting address.
class FirmwareFault : public Error {
public:
    FirmwareFault(FaultInfo info, std::string where, const std::string& message)
        : Error(message), info_(std::move(info)), where_(std::move(where)) {}
    const FaultInfo& info() const { return info_; }
    const std::string& where() const { return where_; }  // "main+0x14 (fault.c:12)"

private:
    FaultInfo info_;
    std::string where_;
};

}  // namespace niclab::core
