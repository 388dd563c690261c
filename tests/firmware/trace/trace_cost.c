/*
 * Trace point cost (tests/cpp/trace/test_trace_cost.cpp). Built three ways from this
 * one source (CMakeLists.txt): cost_on (tracing on), cost_off (tracing off) and
 * cost_none (the trace calls removed by a macro). Each measured region is run twice
 * and the second run is kept, so the I-cache is warm; results go to uncached SRAM,
 * where the test reads them through the debug back door after the firmware halts.
 */
#include "niclab/fw/runtime.h"
#include "niclab/fw/trace.h"

#ifdef TRACE_COST_NO_CALLS   /* the same source without trace points */
#undef trace
#undef trace_val
#define trace() do { } while (0)
#define trace_val(v) do { } while (0)
#endif

#define POINTS 8

FW_UNCACHED volatile uint32_t result_empty;     /* mcycle delta of an empty region */
FW_UNCACHED volatile uint32_t result_points;    /* ... of POINTS trace points in a row */
FW_UNCACHED volatile uint32_t result_work;      /* ... of a loop with trace points */
FW_UNCACHED volatile uint32_t result_work_insns;
FW_UNCACHED volatile uint32_t result_hash;
FW_UNCACHED volatile uint32_t result_points_count;  /* POINTS, for the test */

static inline uint32_t cycles(void)
{
    uint32_t v;
    __asm__ volatile("csrr %0, mcycle" : "=r"(v));
    return v;
}

static inline uint32_t insns(void)
{
    uint32_t v;
    __asm__ volatile("csrr %0, minstret" : "=r"(v));
    return v;
}

static __attribute__((noinline)) uint32_t measure_empty(void)
{
    uint32_t t0 = cycles();
    uint32_t t1 = cycles();
    return t1 - t0;
}

static __attribute__((noinline)) uint32_t measure_points(void)
{
    uint32_t t0 = cycles();
    trace();
    trace_val(1);
    trace_val(2);
    trace_val(3);
    trace_val(0x81);
    trace_val(0x82);
    trace_val(0x83);
    trace();
    uint32_t t1 = cycles();
    return t1 - t0;
}

static uint8_t data[200];

static __attribute__((noinline)) uint32_t workload(const uint8_t *p, uint32_t n)
{
    uint32_t h = 2166136261u;   /* FNV-1a */
    trace_val(1);
    for (uint32_t i = 0; i < n; i++) {
        h = (h ^ p[i]) * 16777619u;
        if ((i & 15u) == 0)
            trace_val((uint8_t)i);
    }
    trace_val(0x81);
    return h;
}

int main(void)
{
    fw_cache_enable(NICLAB_CACHE_I | NICLAB_CACHE_D);
    fw_set_running();
    for (uint32_t i = 0; i < sizeof data; i++)
        data[i] = (uint8_t)(i * 13u + 1u);

    uint32_t empty = 0, points = 0, work = 0, work_insns = 0, hash = 0;
    for (int round = 0; round < 2; round++) {   /* keep the second, warm run */
        empty = measure_empty();
        points = measure_points();
        uint32_t c0 = cycles(), i0 = insns();
        hash = workload(data, sizeof data);
        uint32_t i1 = insns(), c1 = cycles();
        work = c1 - c0;
        work_insns = i1 - i0;
    }
    result_empty = empty;
    result_points = points;
    result_work = work;
    result_work_insns = work_insns;
    result_hash = hash;
    result_points_count = POINTS;
    fw_halt(0);
}
