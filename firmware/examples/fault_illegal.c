/*
 * fault_illegal: starts, then executes an illegal instruction with no trap handler
 * installed (mtvec is 0). The fault report should name do_illegal_instruction and
 * its source line. Built a second time with tracing on (fault_illegal_traced): its
 * report then ends with the last trace records, the way to the fault.
 */
#include "niclab/fw/runtime.h"
#include "niclab/fw/trace.h"

/* noinline so the faulting PC is inside a function of its own name. */
__attribute__((noinline)) void do_illegal_instruction(void)
{
    __asm__ volatile(".word 0x00000000");   /* all zeros is defined to be illegal */
}

int main(void)
{
    fw_set_running();
    trace_val(1);
    trace_val(2);
    do_illegal_instruction();
    fw_halt(0);                 /* not reached */
}
