/*
 * raw_msg: raw messaging between nodes, without any protocol: the host asks for a
 * send (destination, host buffer, length) or posts a receive buffer through the
 * mailbox; the firmware drives the TX and RX DMA engines and reports completions
 * in the mailbox's result FIFO, interrupting the host. It exercises the whole path
 * mailbox -> TX DMA -> network -> RX DMA -> host memory (issue "SeaStar node").
 *
 * The main loop polls its sources and sleeps in wfi when none had work: external
 * interrupts are enabled in mie but not in mstatus, so wfi wakes without a trap.
 */
#include "niclab/fw/csr.h"
#include "niclab/fw/dma.h"
#include "niclab/fw/mailbox.h"
#include "niclab/fw/runtime.h"
#include "niclab/fw/raw_msg.h"

FW_UNCACHED struct niclab_mailbox niclab_mailbox;

/* Receive buffers the host posted, in order (a ring). */
struct recv_buffer {
    uint32_t tag, addr_lo, addr_hi, max_length;
};
#define MAX_POSTED 64u
static struct recv_buffer posted[MAX_POSTED];
static uint32_t posted_head, posted_tail;

/* New messages waiting for a posted buffer: their RX slot, source and length. */
struct arrival {
    uint32_t slot, src, length;
};
#define MAX_WAITING NICLAB_RXDMA_SLOTS
static struct arrival waiting[MAX_WAITING];
static uint32_t waiting_head, waiting_tail;

static uint32_t tx_tail, rx_cmd_tail;
static uint32_t heartbeat;

static void post_result(uint32_t op, uint32_t tag, uint32_t status, uint32_t bytes, uint32_t src)
{
    struct niclab_mailbox *mb = &niclab_mailbox;
    uint32_t t = mb->res_tail;
    while ((t + 1) % NICLAB_MAILBOX_ENTRIES == mb->res_head)
        ;  /* the host drains results on every interrupt; a full FIFO is momentary */
    volatile uint32_t *r = mb->res[t];
    r[RAW_RES_OP] = op;
    r[RAW_RES_TAG] = tag;
    r[RAW_RES_STATUS] = status;
    r[RAW_RES_BYTES] = bytes;
    r[RAW_RES_SRC] = src;
    mb->res_tail = (t + 1) % NICLAB_MAILBOX_ENTRIES;
    fw_ctrl_write(NICLAB_CTRL_HOST_IRQ, 1);
}

/* One send command: a single-region message. Returns 0 (leave it for later) when the
 * TX FIFO is full: the firmware yields and comes back when completions free room. */
static int start_send(volatile uint32_t *c)
{
    if (!dma_fifo_has_room(NICLAB_TXDMA_BASE, NICLAB_TXDMA_CMD_HEAD, tx_tail))
        return 0;
    uint32_t base = NICLAB_TXDMA_BASE, ring = NICLAB_TXDMA_CMD_RING, stride = NICLAB_TXDMA_CMD_BYTES;
    *dma_entry(base, ring, stride, tx_tail, NICLAB_TXCMD_CTRL) = NICLAB_TXCMD_START | NICLAB_TXCMD_END;
    *dma_entry(base, ring, stride, tx_tail, NICLAB_TXCMD_DST) = c[RAW_CMD_DST];
    *dma_entry(base, ring, stride, tx_tail, NICLAB_TXCMD_LENGTH) = c[RAW_CMD_LENGTH];
    *dma_entry(base, ring, stride, tx_tail, NICLAB_TXCMD_ADDR_LO) = c[RAW_CMD_ADDR_LO];
    *dma_entry(base, ring, stride, tx_tail, NICLAB_TXCMD_ADDR_HI) = c[RAW_CMD_ADDR_HI];
    *dma_entry(base, ring, stride, tx_tail, NICLAB_TXCMD_TAG) = c[RAW_CMD_TAG];
    tx_tail = dma_next(tx_tail);
    dma_write(base, NICLAB_TXDMA_CMD_TAIL, tx_tail);
    return 1;
}

static void deposit(const struct arrival *a, const struct recv_buffer *b)
{
    uint32_t base = NICLAB_RXDMA_BASE, ring = NICLAB_RXDMA_CMD_RING, stride = NICLAB_RXDMA_CMD_BYTES;
    while (!dma_fifo_has_room(base, NICLAB_RXDMA_CMD_HEAD, rx_cmd_tail))
        ;  /* the engine takes commands as fast as it can look at them */
    uint32_t length = a->length < b->max_length ? a->length : b->max_length;
    *dma_entry(base, ring, stride, rx_cmd_tail, NICLAB_RXCMD_SLOT) = a->slot;
    *dma_entry(base, ring, stride, rx_cmd_tail, NICLAB_RXCMD_CTRL) = NICLAB_RXCMD_END;
    *dma_entry(base, ring, stride, rx_cmd_tail, NICLAB_RXCMD_DISCARD) = 0;
    *dma_entry(base, ring, stride, rx_cmd_tail, NICLAB_RXCMD_LENGTH) = length;
    *dma_entry(base, ring, stride, rx_cmd_tail, NICLAB_RXCMD_ADDR_LO) = b->addr_lo;
    *dma_entry(base, ring, stride, rx_cmd_tail, NICLAB_RXCMD_ADDR_HI) = b->addr_hi;
    *dma_entry(base, ring, stride, rx_cmd_tail, NICLAB_RXCMD_TAG) = b->tag;
    rx_cmd_tail = dma_next(rx_cmd_tail);
    dma_write(base, NICLAB_RXDMA_CMD_TAIL, rx_cmd_tail);
}

/* Pair waiting arrivals with posted buffers, oldest first. */
static int match_arrivals(void)
{
    int progress = 0;
    while (waiting_head != waiting_tail && posted_head != posted_tail) {
        deposit(&waiting[waiting_head], &posted[posted_head]);
        waiting_head = (waiting_head + 1) % MAX_WAITING;
        posted_head = (posted_head + 1) % MAX_POSTED;
        progress = 1;
    }
    return progress;
}

static int handle_mailbox(void)
{
    struct niclab_mailbox *mb = &niclab_mailbox;
    int progress = 0;
    while (mb->cmd_head != mb->cmd_tail) {
        volatile uint32_t *c = mb->cmd[mb->cmd_head];
        if (c[RAW_CMD_OP] == RAW_CMD_SEND) {
            if (!start_send(c))
                break;  /* TX FIFO full: yield, keep the command */
        } else if (c[RAW_CMD_OP] == RAW_CMD_RECV) {
            if ((posted_tail + 1) % MAX_POSTED == posted_head)
                break;  /* no room to remember it: the host must wait for a completion */
            struct recv_buffer *b = &posted[posted_tail];
            b->tag = c[RAW_CMD_TAG];
            b->addr_lo = c[RAW_CMD_ADDR_LO];
            b->addr_hi = c[RAW_CMD_ADDR_HI];
            b->max_length = c[RAW_CMD_LENGTH];
            posted_tail = (posted_tail + 1) % MAX_POSTED;
        }
        mb->cmd_head = (mb->cmd_head + 1) % NICLAB_MAILBOX_ENTRIES;
        progress = 1;
    }
    return progress;
}

static int handle_tx_completions(void)
{
    int progress = 0;
    uint32_t head = dma_read(NICLAB_TXDMA_BASE, NICLAB_TXDMA_CPL_HEAD);
    while (head != dma_read(NICLAB_TXDMA_BASE, NICLAB_TXDMA_CPL_TAIL)) {
        volatile uint32_t *cpl = dma_entry(NICLAB_TXDMA_BASE, NICLAB_TXDMA_CPL_RING, NICLAB_TXDMA_CPL_BYTES, head, 0);
        post_result(RAW_RES_SENT, cpl[NICLAB_CPL_TAG], cpl[NICLAB_CPL_STATUS], cpl[NICLAB_CPL_BYTES], fw_node_id());
        head = dma_next(head);
        dma_write(NICLAB_TXDMA_BASE, NICLAB_TXDMA_CPL_HEAD, head);
        progress = 1;
    }
    return progress;
}

static int handle_rx_events(void)
{
    int progress = 0;
    uint32_t head = dma_read(NICLAB_RXDMA_BASE, NICLAB_RXDMA_EVT_HEAD);
    while (head != dma_read(NICLAB_RXDMA_BASE, NICLAB_RXDMA_EVT_TAIL) &&
           (waiting_tail + 1) % MAX_WAITING != waiting_head) {
        volatile uint32_t *e = dma_entry(NICLAB_RXDMA_BASE, NICLAB_RXDMA_EVT_RING, NICLAB_RXDMA_EVT_BYTES, head, 0);
        struct arrival *a = &waiting[waiting_tail];
        a->slot = e[NICLAB_RXEVT_SLOT];
        a->src = e[NICLAB_RXEVT_SRC];
        a->length = e[NICLAB_RXEVT_LENGTH];
        waiting_tail = (waiting_tail + 1) % MAX_WAITING;
        head = dma_next(head);
        dma_write(NICLAB_RXDMA_BASE, NICLAB_RXDMA_EVT_HEAD, head);
        progress = 1;
    }
    return progress | match_arrivals();
}

static int handle_rx_completions(void)
{
    int progress = 0;
    uint32_t head = dma_read(NICLAB_RXDMA_BASE, NICLAB_RXDMA_CPL_HEAD);
    while (head != dma_read(NICLAB_RXDMA_BASE, NICLAB_RXDMA_CPL_TAIL)) {
        volatile uint32_t *cpl = dma_entry(NICLAB_RXDMA_BASE, NICLAB_RXDMA_CPL_RING, NICLAB_RXDMA_CPL_BYTES, head, 0);
        /* The engine returns the buffer's tag and the source: a slot may already be
         * reused by a newer message, so nothing is looked up by slot here. */
        post_result(RAW_RES_RECEIVED, cpl[NICLAB_CPL_TAG], cpl[NICLAB_CPL_STATUS], cpl[NICLAB_CPL_BYTES],
                    cpl[NICLAB_CPL_SRC]);
        head = dma_next(head);
        dma_write(NICLAB_RXDMA_BASE, NICLAB_RXDMA_CPL_HEAD, head);
        progress = 1;
    }
    return progress;
}

int main(void)
{
    fw_cache_enable(NICLAB_CACHE_I | NICLAB_CACHE_D);
    niclab_mailbox.entries = NICLAB_MAILBOX_ENTRIES;
    niclab_mailbox.magic = NICLAB_MAILBOX_MAGIC;
    fw_csr_set(mie, 1u << 11);  /* MEIE: external interrupts wake wfi (no trap: MIE stays 0) */
    fw_set_running();
    for (;;) {
        *(volatile uint32_t *)NICLAB_HEARTBEAT_ADDR = ++heartbeat;
        /* Clear the sources first: anything raised while we work keeps MEIP up, so
         * the wfi below falls through instead of sleeping through it. */
        fw_ctrl_write(NICLAB_CTRL_EXT_IRQ_STATUS, fw_ctrl_read(NICLAB_CTRL_EXT_IRQ_STATUS));
        int progress = handle_mailbox();
        progress |= handle_tx_completions();
        progress |= handle_rx_events();
        progress |= handle_rx_completions();
        if (!progress)
            fw_wfi();
    }
}
