/*
 * spin: starts, then loops forever without a store and without kicking the
 * watchdog, so the watchdog test sees a firmware that is alive but stuck.
 */
#include "niclab/fw/runtime.h"

int main(void)
{
    fw_set_running();
    for (;;)
        __asm__ volatile("");   /* an empty loop the compiler may not delete */
}
