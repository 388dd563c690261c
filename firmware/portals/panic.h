/*
 * Resource exhaustion and protocol violations (seed 000 §4.3.3): the C firmware
 * assumes exhaustion does not happen and panics the node when it does - never a
 * hang. These helpers format a reason with the numbers that explain it into a
 * static buffer in uncached SRAM (the host reads the reason straight from SRAM) and
 * return it; the handler that found the problem calls fw_panic itself, so the fault
 * names the handler's source line:
 *
 *     fw_panic(reason_pool("RX pending", used, total));
 */
#ifndef PTL_PANIC_H
#define PTL_PANIC_H

#include <stdint.h>

#include "niclab/fw/runtime.h"

/* "<pool> pool exhausted: <used> of <total> in use" */
const char *reason_pool(const char *pool, uint32_t used, uint32_t total);
/* "<what> <value>", e.g. "TX command for a pending in use: id 7" */
const char *reason_value(const char *what, uint32_t value);

#endif /* PTL_PANIC_H */
