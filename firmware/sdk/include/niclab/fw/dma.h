/*
 * Firmware helpers for the TX and RX DMA engines (registers in niclab/fw/hw.h).
 * Every access is a device-register access over the bus, so they are kept few:
 * commands are written word by word into the engine's ring, then the tail is
 * advanced once.
 */
#ifndef NICLAB_FW_DMA_H
#define NICLAB_FW_DMA_H

#include <stdint.h>

#include "niclab/fw/hw.h"

static inline volatile uint32_t *dma_reg(uint32_t base, uint32_t offset)
{
    return (volatile uint32_t *)(uintptr_t)(base + offset);
}

static inline uint32_t dma_read(uint32_t base, uint32_t offset) { return *dma_reg(base, offset); }
static inline void dma_write(uint32_t base, uint32_t offset, uint32_t v) { *dma_reg(base, offset) = v; }

static inline uint32_t dma_next(uint32_t index) { return (index + 1) % NICLAB_DMA_FIFO_ENTRIES; }

/* A command FIFO has room when advancing its tail would not meet the head. */
static inline int dma_fifo_has_room(uint32_t base, uint32_t head_reg, uint32_t tail)
{
    return dma_next(tail) != dma_read(base, head_reg);
}

/* Word `word` of entry `index` of a ring at `ring` with `stride`-byte entries. */
static inline volatile uint32_t *dma_entry(uint32_t base, uint32_t ring, uint32_t stride, uint32_t index,
                                           uint32_t word)
{
    return dma_reg(base, ring + index * stride + word * 4u);
}

#endif /* NICLAB_FW_DMA_H */
