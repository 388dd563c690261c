/*
 * noboot: never sets the running flag, so the loader's boot handshake times out
 * (seed 000 §3.2). It sleeps in wfi rather than spinning: nothing wakes it.
 */
#include "niclab/fw/runtime.h"

int main(void)
{
    for (;;)
        fw_wfi();
}
