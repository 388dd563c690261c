/* The current process/source/pending when they are not pinned in registers
 * (globals.h, seed 000 §5.4). */
#include "globals.h"

#if !PTL_PIN_GLOBALS
struct process *process;
struct source *source;
struct lower_pending *pending;
#else
/* ISO C forbids an empty translation unit. */
typedef int ptl_globals_pinned;
#endif
