/*
 * The SeaStar's hardware interface: the one header shared by the SeaStar firmware (C,
 * RV32IM) and the C++ device models (cpp/src/systems/seastar). Every address and
 * register layout the firmware can touch is defined here or in core_hw.h (the parts
 * every embedded-core NIC shares), so the two sides cannot drift apart.
 *
 * Address map of the NIC core (32-bit, little-endian):
 *
 *   0x0000_0000 - 0xEFFF_FFFF  host memory: 15 windows x 256 MB through the host bridge
 *                              (seed 000 §2). Only windows the host driver opened are
 *                              reachable; anything else is an access fault.
 *   0xF000_0000 - 0xF000_0FFF  NIC control block registers (cache control, timer,
 *                              watchdog, console, host interrupt, halt)
 *   0xF001_0000 - 0xF001_00FF  host bridge window registers (read-only to firmware)
 *   0xFFF4_0000 - 0xFFF9_FFFF  SRAM, uncached view (shared with the host)
 *   0xFFFA_0000 - 0xFFFF_FFFF  SRAM, cached view: the top 384 KB of the address
 *                              space (seed 000 §2, §3.2)
 *
 * Both SRAM views reach the same 384 KB: SRAM offset o is at UNCACHED_BASE + o and at
 * CACHED_BASE + o. Whether an access may hit the caches depends on the view it uses.
 */
#ifndef NICLAB_FW_HW_H
#define NICLAB_FW_HW_H

#include "niclab/fw/core_hw.h"  /* SRAM views, boot block, control block: every embedded core */

#define NICLAB_HOST_WINDOW_COUNT    15u          /* seed 000 §2 */
#define NICLAB_HOST_WINDOW_SIZE     NICLAB_U(0x10000000)  /* 256 MB each, seed 000 §2 */
#define NICLAB_HOST_WINDOW_ADDR(i)  ((i) * NICLAB_HOST_WINDOW_SIZE)

/* ---- Host bridge window registers: 16 bytes per window, read-only to firmware.
 * The host driver opens a window; the firmware may read where it points. ---- */
#define NICLAB_HB_BASE              NICLAB_U(0xF0010000)
#define NICLAB_HB_WINDOW_STRIDE     NICLAB_U(0x10)
#define NICLAB_HB_HOST_ADDR_LO      NICLAB_U(0x0)   /* host physical address the window starts at */
#define NICLAB_HB_HOST_ADDR_HI      NICLAB_U(0x4)
#define NICLAB_HB_LIMIT             NICLAB_U(0x8)   /* bytes reachable from the window's base */
#define NICLAB_HB_FLAGS             NICLAB_U(0xC)   /* bit0 open, bit1 writable */
#define NICLAB_HB_OPEN              NICLAB_U(0x1)
#define NICLAB_HB_WRITABLE          NICLAB_U(0x2)

/* ---- The SeaStar devices' external interrupt sources (core_hw.h has the doorbell). ---- */
#define NICLAB_IRQ_TX_DONE          NICLAB_U(0x02)  /* a TX DMA completion was posted */
#define NICLAB_IRQ_RX_EVENT         NICLAB_U(0x04)  /* a new message's header arrived */
#define NICLAB_IRQ_RX_DONE          NICLAB_U(0x08)  /* an RX DMA completion was posted */
#define NICLAB_IRQ_RX_EXHAUSTED     NICLAB_U(0x10)  /* a new message found no free RX slot */

/* ---- DMA engines (seed 000 §2 and §5.3). Command, event and completion FIFOs live in
 * device memory, each managed by a head and a tail index: the producer advances the
 * tail after writing an entry, the consumer advances the head after using one. A FIFO
 * is full when advancing the tail would make it equal the head. Indices run modulo the
 * FIFO's entries. Writing a command FIFO's tail starts the engine. ---- */
#define NICLAB_DMA_FIFO_ENTRIES     NICLAB_U(64)
#define NICLAB_PACKET_PAYLOAD       NICLAB_U(64)   /* bytes per network packet, seed 001 §2 */

/* TX DMA engine: gathers each message from host memory (one command per contiguous
 * region), packetizes it, appends the end-to-end CRC-32, and reports completion. */
#define NICLAB_TXDMA_BASE           NICLAB_U(0xF0020000)
#define NICLAB_TXDMA_SIZE           NICLAB_U(0x2000)
#define NICLAB_TXDMA_CMD_HEAD       NICLAB_U(0x000)  /* r: engine's consumer index */
#define NICLAB_TXDMA_CMD_TAIL       NICLAB_U(0x004)  /* r/w: firmware's producer index */
#define NICLAB_TXDMA_CPL_HEAD       NICLAB_U(0x008)  /* r/w: firmware's consumer index */
#define NICLAB_TXDMA_CPL_TAIL       NICLAB_U(0x00C)  /* r: engine's producer index */
#define NICLAB_TXDMA_PACKETS        NICLAB_U(0x010)  /* r: packets sent since reset */
#define NICLAB_TXDMA_CMD_RING       NICLAB_U(0x100)  /* 64 commands x 32 bytes */
#define NICLAB_TXDMA_CPL_RING       NICLAB_U(0x1000) /* 64 completions x 16 bytes */
#define NICLAB_TXDMA_CMD_BYTES      NICLAB_U(32)
#define NICLAB_TXDMA_CPL_BYTES      NICLAB_U(16)

/* TX command words. A message is one or more commands: the first has START, the last
 * END; each names one contiguous host region (its first bytes usually the header). */
#define NICLAB_TXCMD_CTRL           0   /* word index: NICLAB_TXCMD_START | NICLAB_TXCMD_END */
#define NICLAB_TXCMD_DST            1   /* destination node id */
#define NICLAB_TXCMD_LENGTH         2   /* bytes of this region */
#define NICLAB_TXCMD_ADDR_LO        3   /* host physical address */
#define NICLAB_TXCMD_ADDR_HI        4
#define NICLAB_TXCMD_TAG            5   /* returned in the completion (END command) */
#define NICLAB_TXCMD_START          NICLAB_U(0x1)
#define NICLAB_TXCMD_END            NICLAB_U(0x2)

/* TX and RX completion words: tag, status, bytes; RX only: the slot and the source. */
#define NICLAB_CPL_TAG              0
#define NICLAB_CPL_STATUS           1
#define NICLAB_CPL_BYTES            2
#define NICLAB_CPL_SLOT             3
#define NICLAB_CPL_SRC              4
#define NICLAB_DMA_OK               NICLAB_U(0)
#define NICLAB_DMA_HOST_FAULT       NICLAB_U(1)  /* host address outside host memory */
#define NICLAB_DMA_CRC_ERROR        NICLAB_U(2)  /* end-to-end CRC-32 mismatch */
#define NICLAB_DMA_TRUNCATED        NICLAB_U(3)  /* commands asked for more bytes than arrived */

/* RX DMA engine: tells the firmware a new message arrived (event with its header),
 * takes deposit commands, demultiplexes interleaved packets of up to
 * NICLAB_RXDMA_SLOTS concurrent messages into their buffers, verifies the CRC. */
#define NICLAB_RXDMA_BASE           NICLAB_U(0xF0030000)
#define NICLAB_RXDMA_SIZE           NICLAB_U(0x6000)
#define NICLAB_RXDMA_SLOTS          NICLAB_U(32)
#define NICLAB_RXDMA_EVT_HEAD       NICLAB_U(0x000)  /* r/w: firmware's consumer index */
#define NICLAB_RXDMA_EVT_TAIL       NICLAB_U(0x004)  /* r: engine's producer index */
#define NICLAB_RXDMA_CMD_HEAD       NICLAB_U(0x008)  /* r: engine's consumer index */
#define NICLAB_RXDMA_CMD_TAIL       NICLAB_U(0x00C)  /* r/w: firmware's producer index */
#define NICLAB_RXDMA_CPL_HEAD       NICLAB_U(0x010)  /* r/w: firmware's consumer index */
#define NICLAB_RXDMA_CPL_TAIL       NICLAB_U(0x014)  /* r: engine's producer index */
#define NICLAB_RXDMA_EXHAUSTED      NICLAB_U(0x018)  /* r: times a new message found no free slot */
#define NICLAB_RXDMA_PACKETS        NICLAB_U(0x01C)  /* r: packets received since reset */
#define NICLAB_RXDMA_CMD_RING       NICLAB_U(0x100)  /* 64 commands x 32 bytes */
#define NICLAB_RXDMA_CPL_RING       NICLAB_U(0x1000) /* 64 completions x 32 bytes */
#define NICLAB_RXDMA_EVT_RING       NICLAB_U(0x2000) /* 64 events x 128 bytes */
#define NICLAB_RXDMA_CMD_BYTES      NICLAB_U(32)
#define NICLAB_RXDMA_CPL_BYTES      NICLAB_U(32)
#define NICLAB_RXDMA_EVT_BYTES      NICLAB_U(128)

/* RX event words (then the header: the message's first NICLAB_PACKET_PAYLOAD bytes). */
#define NICLAB_RXEVT_SLOT           0
#define NICLAB_RXEVT_SRC            1   /* source node id */
#define NICLAB_RXEVT_LENGTH         2   /* bytes of the whole message */
#define NICLAB_RXEVT_HEADER_BYTES   3   /* valid bytes in the header copy */
#define NICLAB_RXEVT_HEADER         16  /* byte offset of the header copy */

/* RX deposit command words: skip DISCARD bytes of the message stream, then write
 * LENGTH bytes to host memory. The END command's completion carries TAG; message
 * bytes after it are discarded. */
#define NICLAB_RXCMD_SLOT           0
#define NICLAB_RXCMD_CTRL           1   /* NICLAB_RXCMD_END on the last command */
#define NICLAB_RXCMD_DISCARD        2
#define NICLAB_RXCMD_LENGTH         3
#define NICLAB_RXCMD_ADDR_LO        4
#define NICLAB_RXCMD_ADDR_HI        5
#define NICLAB_RXCMD_TAG            6
#define NICLAB_RXCMD_END            NICLAB_U(0x1)

#endif /* NICLAB_FW_HW_H */
