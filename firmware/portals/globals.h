/*
 * The firmware's "current" pointers: the process, source and pending the handler
 * at work is dealing with (seed 000 §5.4). With PTL_PIN_GLOBALS they are pinned in
 * callee-saved registers for the whole program, as the C firmware pinned them in
 * r29-r31 on the PPC440:
 *
 *     register process_t *process asm ("r31");  ->  s11 on RISC-V
 *
 * Every Portals source includes this header first and is compiled with
 * -ffixed-s9 -ffixed-s10 -ffixed-s11, so gcc never allocates them. The runtime
 * library (memcpy, fw_panic, ...) is compiled without those flags but follows the
 * psABI: it saves and restores s9-s11 if it uses them, so the pinned values survive
 * every call into it. s9-s11 are callee-saved, not argument registers, so no ABI
 * rule is broken (the caveat of §5.4). Without pinning they are ordinary globals in
 * cached SRAM and each use is a load or a store.
 */
#ifndef PTL_GLOBALS_H
#define PTL_GLOBALS_H

#include "config.h"

struct process;
struct source;
struct lower_pending;

#if PTL_PIN_GLOBALS
register struct process *process __asm__("s11");
register struct source *source __asm__("s10");
register struct lower_pending *pending __asm__("s9");
#else
extern struct process *process;
extern struct source *source;
extern struct lower_pending *pending;
#endif

#endif /* PTL_GLOBALS_H */
