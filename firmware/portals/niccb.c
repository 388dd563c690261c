/* The NIC control block and its cached shadow (seed 000 §4.2, §5.3). */
#include "globals.h"

#include "niclab/fw/dma.h"
#include "niclab/fw/runtime.h"
#include "niccb.h"
#include "pending.h"
#include "source.h"

FW_UNCACHED volatile struct ptl_niccb niccb;
struct fw_niccb cached_niccb;

static void fifo_shadow_load(struct fifo_shadow *s, uint32_t base, uint32_t head_reg, uint32_t tail_reg)
{
    s->head = dma_read(base, head_reg);
    s->tail = dma_read(base, tail_reg);
}

void niccb_boot(void)
{
    struct ptl_niccb *c = &cached_niccb.sh;
    c->version = PTL_FW_VERSION;
    c->features = PTL_FEATURES;
    c->tx_pendings = PTL_TX_PENDINGS;
    c->rx_pendings = PTL_RX_PENDINGS;
    c->sources = PTL_SOURCES;
    c->segments = PTL_SEGMENTS;
    c->pending_bytes = sizeof(struct lower_pending);
    c->source_bytes = sizeof(struct source);
    /* M = S*S_size + sum_i P_i*P_size with N = PTL_PROCESSES, every process's pool the
     * same size (§4.2). */
    c->sram_structs = PTL_SOURCES * sizeof(struct source) + PTL_PROCESSES * PTL_PENDINGS * sizeof(struct lower_pending);
    /* Counters start at zero (crt0 cleared both copies). The magic goes last: the
     * host trusts nothing else before it sees it. */
    niccb.version = c->version;
    niccb.features = c->features;
    niccb.tx_pendings = c->tx_pendings;
    niccb.rx_pendings = c->rx_pendings;
    niccb.sources = c->sources;
    niccb.segments = c->segments;
    niccb.pending_bytes = c->pending_bytes;
    niccb.source_bytes = c->source_bytes;
    niccb.sram_structs = c->sram_structs;
    niccb.ctrl_pendings = c->ctrl_pendings = PTL_CTRL_PENDINGS;
#if PTL_ACCEL
    niccb.accel_mes = c->accel_mes = PTL_ACCEL_MES;
    niccb.accel_mds = c->accel_mds = PTL_ACCEL_MDS;
#endif
    c->magic = PTL_NICCB_MAGIC;
    niccb.magic = PTL_NICCB_MAGIC;

    fifo_shadow_load(&cached_niccb.tx_cmd, NICLAB_TXDMA_BASE, NICLAB_TXDMA_CMD_HEAD, NICLAB_TXDMA_CMD_TAIL);
    fifo_shadow_load(&cached_niccb.tx_cpl, NICLAB_TXDMA_BASE, NICLAB_TXDMA_CPL_HEAD, NICLAB_TXDMA_CPL_TAIL);
    fifo_shadow_load(&cached_niccb.rx_evt, NICLAB_RXDMA_BASE, NICLAB_RXDMA_EVT_HEAD, NICLAB_RXDMA_EVT_TAIL);
    fifo_shadow_load(&cached_niccb.rx_cmd, NICLAB_RXDMA_BASE, NICLAB_RXDMA_CMD_HEAD, NICLAB_RXDMA_CMD_TAIL);
    fifo_shadow_load(&cached_niccb.rx_cpl, NICLAB_RXDMA_BASE, NICLAB_RXDMA_CPL_HEAD, NICLAB_RXDMA_CPL_TAIL);
}
