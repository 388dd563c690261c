#include "niclab/core/fault.hpp"

#include <cstdio>

namespace niclab::core {

const char* trap_cause_name(uint32_t mcause) {
    if (mcause & 0x80000000u) {
        switch (mcause & 0x7FFFFFFFu) {
            case 3: return "machine software interrupt";
            case 7: return "machine timer interrupt";
            case 11: return "machine external interrupt";
        }
        return "interrupt";
    }
    switch (TrapCause(mcause)) {
        case TrapCause::InstructionMisaligned: return "instruction address misaligned";
        case TrapCause::InstructionAccessFault: return "instruction access fault";
        case TrapCause::IllegalInstruction: return "illegal instruction";
        case TrapCause::Breakpoint: return "breakpoint";
        case TrapCause::LoadMisaligned: return "load address misaligned";
        case TrapCause::LoadAccessFault: return "load access fault";
        case TrapCause::StoreMisaligned: return "store address misaligned";
        case TrapCause::StoreAccessFault: return "store access fault";
        case TrapCause::EcallM: return "environment call from M-mode";
    }
    return "unknown trap";
}

const char* fault_kind_name(FaultKind k) {
    switch (k) {
        case FaultKind::UnhandledTrap: return "unhandled trap";
        case FaultKind::DoubleFault: return "double fault";
        case FaultKind::Watchdog: return "watchdog";
        case FaultKind::BootTimeout: return "boot timeout";
        case FaultKind::Panic: return "firmware panic";
    }
    return "fault";
}

std::string FaultInfo::hex_pc() const {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08x", pc);
    return buf;
}

std::string FaultInfo::summary() const {
    char buf[200];
    switch (kind) {
        case FaultKind::Panic: return "firmware panic: " + message + " (panic called at pc " + hex_pc() + ")";
        case FaultKind::Watchdog:
            std::snprintf(buf, sizeof buf, "watchdog: no progress, core at pc 0x%08x", pc);
            break;
        case FaultKind::BootTimeout:
            std::snprintf(buf, sizeof buf, "boot timeout: running flag never set, core at pc 0x%08x", pc);
            break;
        case FaultKind::DoubleFault:
            std::snprintf(buf, sizeof buf, "double fault: %s at pc 0x%08x, and its trap handler at 0x%08x cannot be fetched",
                          trap_cause_name(cause), pc, tval);
            break;
        case FaultKind::UnhandledTrap:
            std::snprintf(buf, sizeof buf, "%s with no trap handler at pc 0x%08x (mcause %u, %s 0x%08x)",
                          trap_cause_name(cause), pc, cause,
                          cause == uint32_t(TrapCause::IllegalInstruction) ? "instruction" : "address", tval);
            break;
    }
    return buf;
}

}  // namespace niclab::core
