#pragma once
// What the core tells a debugger (debug/gdb_server.hpp) and what the debugger asks of
// it. The core layer knows nothing about sockets or GDB: it stops where it is told
// to, says why, and calls the listener, which blocks until the debugger resumes it.
// Because the listener runs on the simulation thread inside the core's burst, nothing
// else in the cluster advances while a core is stopped: global time stands still.
#include <cstdint>

#include "niclab/core/fault.hpp"

namespace niclab::core {

// A watchpoint's access kind, as GDB's Z2 (write), Z3 (read) and Z4 (access).
enum class WatchKind : uint8_t { Write, Read, Access };

struct DebugStop {
    enum class Kind : uint8_t {
        Breakpoint,  // about to execute an instruction with a breakpoint
        Step,        // executed the one instruction it was asked to
        Watch,       // about to make an access a watchpoint covers (the access has not happened)
        Interrupt,   // the debugger asked it to stop (Ctrl-C, attach)
        Fault,       // the firmware faulted (the core stays faulted when resumed)
        Exited,      // the firmware halted cleanly (exit code)
    };
    Kind kind = Kind::Interrupt;
    uint32_t pc = 0;
    WatchKind watch_kind = WatchKind::Write;
    uint32_t watch_address = 0;  // the address the watchpoint was set on (not the alias used)
    FaultKind fault = FaultKind::UnhandledTrap;  // Fault: which kind
    uint32_t mcause = 0;                         // Fault: the trap cause of an unhandled trap
    uint32_t exit_code = 0;      // Exited
};

enum class Resume : uint8_t { Continue, Step };

class DebugListener {
public:
    virtual ~DebugListener() = default;
    // The core stopped; returns when the debugger resumes it (blocking keeps the
    // whole simulation, and so global time, where it is).
    virtual Resume stopped(const DebugStop& why) = 0;
    // Called every few bursts while the core runs: true asks the core to stop now
    // (a Ctrl-C from the debugger, a debugger that just attached). Must be cheap.
    virtual bool poll() = 0;
};

}  // namespace niclab::core
