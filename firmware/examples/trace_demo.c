/*
 * trace_demo: trace points in a firmware shaped like the seed's (seed 000 §3.3,
 * Figure 2). A main loop polls for events and dispatches handlers; the events come
 * from a small pseudo-random script (seeded with the node id) instead of a network,
 * so every run is the same. Between rounds the core sleeps in wfi until the timer
 * fires, so the firmware runs forever and the host can read its trace at any time
 * (niclab tracedump, nic.trace()).
 *
 * Trace values follow the pairing convention of the Chrome exporter (traces/FORMAT.md):
 * a value v in 1..127 opens a span, v | 0x80 closes it; 0 and unpaired values are
 * plain instants. The main loop records 24, like the first line of Figure 2.
 */
#include "niclab/fw/runtime.h"
#include "niclab/fw/trace.h"

#define ROUND_CYCLES    2000u   /* 4 us at 500 MHz between polling rounds */
#define TV_MAINLOOP     24u
#define TV_RX           0x10u   /* rx_complete span */
#define TV_TX           0x20u   /* goaccel_tx_command span */
#define TV_END          0x80u

enum event { EV_NONE, EV_RX, EV_CMD };

struct source {
    uint32_t nid;
    uint32_t messages;
};

static uint32_t lcg_state;
static uint8_t rx_buffer[256];
static struct source sources[16];
static uint32_t rx_checksum, tx_count;

static uint32_t next_random(void)
{
    lcg_state = lcg_state * 1664525u + 1013904223u;
    return lcg_state >> 8;
}

static enum event poll_event(void)
{
    uint32_t r = next_random() % 8u;
    return r < 3 ? EV_RX : r < 5 ? EV_CMD : EV_NONE;
}

/* noinline throughout: an inlined handler's trace points would be attributed to its
 * caller (seed 000 §3.3). */
static __attribute__((noinline)) struct source *resolve_source(uint32_t nid)
{
    struct source *s = &sources[nid % 16u];
    trace();
    if (s->nid != nid) {        /* a new source: (re)initialise the slot */
        s->nid = nid;
        s->messages = 0;
    }
    s->messages++;
    trace();
    return s;
}

static __attribute__((noinline)) void goaccel_tx_command(uint32_t nid, uint32_t length)
{
    trace_val(TV_TX);
    struct source *s = resolve_source(nid);
    for (uint32_t i = 0; i < length; i += 4)   /* stand-in for building DMA commands */
        tx_count += s->messages + i;
    trace_val(TV_TX | TV_END);
}

static __attribute__((noinline)) void handle_command(uint32_t command)
{
    trace_val((uint8_t)command);    /* the command number as data, as in Figure 2 */
    if (command == 5u)
        goaccel_tx_command(next_random() % 64u, 16u + next_random() % 64u);
}

static __attribute__((noinline)) void rx_complete(uint32_t length)
{
    trace_val(TV_RX);
    uint32_t sum = 0;
    for (uint32_t i = 0; i < length; i++)
        sum += rx_buffer[i] ^ (uint8_t)i;
    trace();
    resolve_source(sum % 64u);
    rx_checksum += sum;
    trace_val(TV_RX | TV_END);
}

static __attribute__((noreturn, noinline)) void mainloop(void)
{
    uint64_t deadline = fw_mtime();
    for (;;) {
        trace_val(TV_MAINLOOP);
        for (int n = 0; n < 3; n++) {
            switch (poll_event()) {
            case EV_RX: rx_complete(8u + next_random() % 120u); break;
            case EV_CMD: handle_command(next_random() % 2u ? 5u : 3u); break;
            case EV_NONE: break;
            }
        }
        /* Nothing left to do: sleep until the next round. wfi wakes on the pending
         * timer even with interrupts masked, so no handler is needed. */
        deadline += ROUND_CYCLES;
        fw_set_timer_at(deadline);
        while (!(fw_csr_read(mip) & FW_MIP_MTIP))
            fw_wfi();
    }
}

int main(void)
{
    fw_cache_enable(NICLAB_CACHE_I | NICLAB_CACHE_D);
    fw_set_running();
    lcg_state = 12345u + fw_node_id();
    for (uint32_t i = 0; i < sizeof rx_buffer; i++)
        rx_buffer[i] = (uint8_t)(i * 7u);
    fw_csr_set(mie, FW_MIE_MTIE);   /* lets wfi wake on the timer; mstatus.MIE stays 0 */
    mainloop();
}
