/*
 * The LANai's transfer engines (lanai.h): network send DMA, network receive DMA and
 * the host DMA engine. GRIM keeps one transfer in flight per engine: the LANai 4 has
 * one of each, and the firmware uses only what both cards share (§9.2.1 L2220); the
 * queue-pointer DMA "cannot be performed until the previous DMA completes" (L1372).
 */
#include "grim.h"

#include "niclab/fw/csr.h"

static inline volatile uint32_t *reg(uint32_t base, uint32_t offset)
{
    return (volatile uint32_t *)(uintptr_t)(base + offset);
}

void wait_event(void)
{
    fw_wfi();
}

int send_busy(void)
{
    return (*reg(LANAI_SEND_BASE, LANAI_SEND_STATUS) & LANAI_DMA_BUSY) != 0;
}

static inline __attribute__((always_inline)) void send_program(uint32_t sram_offset, uint32_t bytes, uint32_t dst, uint32_t go)
{
    /* The route comes from the driver's table: Myrinet is source routed (L622), the
     * routes read from configuration files (App. C.1.2). */
    const volatile struct grim_route *r = &grim_shared.routes[dst];
    *reg(LANAI_SEND_BASE, LANAI_SEND_SRAM_OFFSET) = sram_offset;
    *reg(LANAI_SEND_BASE, LANAI_SEND_LENGTH) = bytes;
    *reg(LANAI_SEND_BASE, LANAI_SEND_DEST) = dst;
    *reg(LANAI_SEND_BASE, LANAI_SEND_ROUTE) = r->bytes;
    *reg(LANAI_SEND_BASE, LANAI_SEND_ROUTE_LENGTH) = r->length;
    *reg(LANAI_SEND_BASE, LANAI_SEND_GO) = go;
}

void send_start(uint32_t sram_offset, uint32_t bytes, uint32_t dst)
{
    send_program(sram_offset, bytes, dst, 1);
}

#if GRIM_DATAPATH == GRIM_DP_CUT_THROUGH
void send_start_go(uint32_t sram_offset, uint32_t bytes, uint32_t dst, uint32_t go)
{
    send_program(sram_offset, bytes, dst, go);
}
#endif

/* Inlined into both directions: the AM and RM-P delivery path keeps its one call. */
static inline __attribute__((always_inline)) void hdma(uint32_t host_addr, uint32_t sram_offset, uint32_t bytes, uint32_t direction)
{
    *reg(LANAI_HDMA_BASE, LANAI_HDMA_HOST_ADDR) = host_addr;
    *reg(LANAI_HDMA_BASE, LANAI_HDMA_SRAM_OFFSET) = sram_offset;
    *reg(LANAI_HDMA_BASE, LANAI_HDMA_LENGTH) = bytes;
    *reg(LANAI_HDMA_BASE, LANAI_HDMA_CTRL) = direction;
    /* Clear the done source before looking, so a completion after the look keeps
     * MEIP up and the wfi falls through. */
    for (;;) {
        fw_ctrl_write(NICLAB_CTRL_EXT_IRQ_STATUS, LANAI_IRQ_HDMA_DONE);
        uint32_t status = *reg(LANAI_HDMA_BASE, LANAI_HDMA_STATUS);
        if (!(status & LANAI_DMA_BUSY)) {
            if (status & LANAI_DMA_ERROR)
                fw_panic("host DMA outside host memory (a bad address from the driver or a message)");
            return;
        }
        wait_event();
    }
}

void hdma_to_host(uint32_t host_addr, uint32_t sram_offset, uint32_t bytes)
{
    hdma(host_addr, sram_offset, bytes, LANAI_HDMA_TO_HOST);
}

void hdma_from_host(uint32_t host_addr, uint32_t sram_offset, uint32_t bytes)
{
    hdma(host_addr, sram_offset, bytes, LANAI_HDMA_FROM_HOST);
}

uint32_t send_done_count(void)
{
    return *reg(LANAI_SEND_BASE, LANAI_SEND_DONE);
}

void engines_boot(uint32_t ring_offset, uint32_t ring_bytes)
{
    *reg(LANAI_RECV_BASE, LANAI_RECV_RING_OFFSET) = ring_offset;
    *reg(LANAI_RECV_BASE, LANAI_RECV_RING_BYTES) = ring_bytes;
    *reg(LANAI_RECV_BASE, LANAI_RECV_ENABLE) = 1;
}
