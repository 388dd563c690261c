/*
 * The Myrinet LANai NIC's hardware interface (seed 004, Ulmer's thesis, §2.2 and
 * App. A): the one header shared by LANai firmware (C, RV32IM) and the C++ device
 * models (cpp/src/systems/grim). The LANai's own core is modelled as niclab's RV32IM
 * core at the LANai's clock (33 MHz LANai 4, 133 MHz LANai 9B: App. A L2243); its
 * three transfer engines are the ones the thesis names (L626): network send DMA,
 * network receive DMA and the host (PCI) DMA engine, one transfer in flight each
 * (GRIM uses only the LANai 4/9 common feature set, §9.2.1 L2220, L1372).
 *
 * Address map of the LANai core (32-bit, little-endian):
 *
 *   0xF000_0000 - 0xF000_0FFF  control block (core_hw.h: console, timer, host IRQ ...)
 *   0xF002_0000 - 0xF002_00FF  host DMA engine (SRAM <-> host memory over PCI)
 *   0xF003_0000 - 0xF003_00FF  network send DMA (SRAM -> link, source route prepended)
 *   0xF004_0000 - 0xF004_00FF  network receive DMA (link -> receive ring in SRAM)
 *   0xFF00_0000 + o            SRAM, uncached view (shared with the host's PIO)
 *   0xFF80_0000 + o            SRAM, cached view
 *
 * SRAM is 1 MB on the LANai 4 and 2 MB on the LANai 9B (App. A L2244); both views
 * have room for 8 MB. Firmware is linked for 1 MB (it runs on both cards; "firmware
 * typically occupies less than 256KB", L624) and learns the card's size from its
 * driver (grim_fw.h), so the LANai 9's second megabyte is message buffer.
 *
 * The LANai has no caches (assumption: the thesis describes none; SRAM is shared with
 * the DMA engines through a priority memory controller, L624), so LANai firmware does
 * not turn the core's caches on and both views cost the same.
 */
#ifndef NICLAB_FW_LANAI_H
#define NICLAB_FW_LANAI_H

#include "niclab/fw/core_hw.h"

#define LANAI_SRAM_UNCACHED_BASE    NICLAB_U(0xFF000000)
#define LANAI_SRAM_CACHED_BASE      NICLAB_U(0xFF800000)
#define LANAI_SRAM_MAX              NICLAB_U(0x00800000)  /* room in each view */
#define LANAI_FW_SRAM_SIZE          NICLAB_U(0x00100000)  /* what images are linked for */
#define LANAI_BOOT_FLAG_ADDR        (LANAI_SRAM_UNCACHED_BASE + NICLAB_BOOT_FLAG_OFFSET)
/* An SRAM offset as the core addresses it (uncached view). */
#define LANAI_SRAM(off)             (LANAI_SRAM_UNCACHED_BASE + (off))

/* ---- External interrupt sources (NICLAB_CTRL_EXT_IRQ_STATUS bits, beside the
 * doorbell of core_hw.h). The host's PIO writes into SRAM ring the doorbell: GRIM's
 * firmware polls its logical channels (L1338), and a polling loop notices a host
 * write at its next pass; the model wakes the sleeping core instead of simulating
 * the spin. ---- */
#define LANAI_IRQ_HDMA_DONE         NICLAB_U(0x02)
#define LANAI_IRQ_SEND_DONE         NICLAB_U(0x04)
#define LANAI_IRQ_RECV              NICLAB_U(0x08)  /* a whole message is in the receive ring */

/* ---- Host DMA engine: one transfer between SRAM and host physical memory over the
 * PCI bus (PCI addresses are 32-bit physical, L575-577). Write the fields, then CTRL
 * to start; STATUS.busy clears and DONE counts up when the last byte has landed. ---- */
#define LANAI_HDMA_BASE             NICLAB_U(0xF0020000)
#define LANAI_HDMA_SIZE             NICLAB_U(0x100)
#define LANAI_HDMA_HOST_ADDR        NICLAB_U(0x00)  /* host physical address */
#define LANAI_HDMA_SRAM_OFFSET      NICLAB_U(0x04)  /* SRAM offset */
#define LANAI_HDMA_LENGTH           NICLAB_U(0x08)  /* bytes */
#define LANAI_HDMA_CTRL             NICLAB_U(0x0C)  /* w: LANAI_HDMA_TO_HOST or _FROM_HOST starts */
#define LANAI_HDMA_STATUS           NICLAB_U(0x10)  /* r: bit0 busy, bit1 error (last transfer) */
#define LANAI_HDMA_DONE             NICLAB_U(0x14)  /* r: transfers completed since reset */
#define LANAI_HDMA_TO_HOST          NICLAB_U(0x1)
#define LANAI_HDMA_FROM_HOST        NICLAB_U(0x2)
#define LANAI_DMA_BUSY              NICLAB_U(0x1)
#define LANAI_DMA_ERROR             NICLAB_U(0x2)

/* ---- Network send DMA: one message from SRAM onto the link as a worm led by its
 * source route (route bytes consumed one per switch, Myrinet L622). ---- */
#define LANAI_SEND_BASE             NICLAB_U(0xF0030000)
#define LANAI_SEND_SIZE             NICLAB_U(0x100)
#define LANAI_SEND_SRAM_OFFSET      NICLAB_U(0x00)
#define LANAI_SEND_LENGTH           NICLAB_U(0x04)  /* bytes of the message (route excluded) */
#define LANAI_SEND_DEST             NICLAB_U(0x08)  /* destination node (the model's packet header) */
#define LANAI_SEND_ROUTE            NICLAB_U(0x0C)  /* route bytes, first hop in the low byte */
#define LANAI_SEND_ROUTE_LENGTH     NICLAB_U(0x10)  /* 0..4 route bytes */
#define LANAI_SEND_GO               NICLAB_U(0x14)  /* w: start */
#define LANAI_SEND_STATUS           NICLAB_U(0x18)  /* r: bit0 busy */
#define LANAI_SEND_DONE             NICLAB_U(0x1C)  /* r: messages sent since reset */
/* Myrinet's NIs manage the network "at the byte level" (§5.5.4, L1455), so a send may
 * start before the whole message is in SRAM: GO = LANAI_SEND_GO_PARTIAL sends only
 * the first AVAIL bytes and holds the worm there until AVAIL is raised (the
 * cooperative cut-through of L1457). GO = 1 sends LENGTH bytes as they are. */
#define LANAI_SEND_AVAIL            NICLAB_U(0x20)  /* r/w: message bytes in SRAM (partial sends) */
#define LANAI_SEND_GO_PARTIAL       NICLAB_U(0x2)
#define LANAI_ROUTE_MAX             4u

/* ---- Network receive DMA: messages land whole in a ring in SRAM that the firmware
 * gives it, each behind a 16-byte descriptor, 8-byte aligned. The engine claims
 * room when a message's first bytes arrive (the network holds the worm while the
 * ring is full: Myrinet's stop/go back-pressure) and sets the descriptor's COMPLETE
 * flag when its last byte is in; the firmware consumes descriptors in ring order and
 * advances HEAD. A claim that does not fit before the ring's end leaves a WRAP
 * descriptor there and starts again at the ring's base. ---- */
#define LANAI_RECV_BASE             NICLAB_U(0xF0040000)
#define LANAI_RECV_SIZE             NICLAB_U(0x100)
#define LANAI_RECV_RING_OFFSET      NICLAB_U(0x00)  /* SRAM offset of the ring (16-aligned; its size too) */
#define LANAI_RECV_RING_BYTES       NICLAB_U(0x04)
#define LANAI_RECV_ENABLE           NICLAB_U(0x08)  /* w: 1 accept messages (after the ring is set) */
#define LANAI_RECV_HEAD             NICLAB_U(0x0C)  /* r/w: bytes consumed by firmware (monotonic) */
#define LANAI_RECV_TAIL             NICLAB_U(0x10)  /* r: bytes claimed by the engine (monotonic) */
#define LANAI_RECV_MESSAGES         NICLAB_U(0x14)  /* r: messages completed since reset */
/* w: 1 raises LANAI_IRQ_RECV at every packet, not only at a message's last: the
 * receiver cut-through of §5.5.4 (L1455) watches a message fill its slot. */
#define LANAI_RECV_PROGRESS_IRQ     NICLAB_U(0x18)
/* r: packets whose CRC-8 failed since reset. Myrinet has no link-level retry: each
 * packet carries a CRC-8 that the receiving interface checks in hardware and reports
 * to the firmware (assumption: the thesis does not describe Myrinet's CRC; ANSI/VITA
 * 26, its ref. [3], puts a CRC-8 at the end of every packet). The engine still writes
 * a bad packet's bytes, as they came, and marks its message's descriptor. */
#define LANAI_RECV_CRC_ERRORS       NICLAB_U(0x1C)
#define LANAI_RECV_DESC_BYTES       NICLAB_U(16)
#define LANAI_RECV_DESC_FLAGS       0   /* word index */
#define LANAI_RECV_DESC_SOURCE      1   /* sending node */
#define LANAI_RECV_DESC_LENGTH      2   /* message bytes behind the descriptor */
#define LANAI_RECV_DESC_RECEIVED    3   /* of them in SRAM so far (updated per packet) */
#define LANAI_RECV_COMPLETE         NICLAB_U(0x1)
#define LANAI_RECV_WRAP             NICLAB_U(0x2)
/* Some packet of the message failed its CRC: the whole message is bad. Set as soon as
 * that packet is in (before COMPLETE), so a firmware streaming the message stops. */
#define LANAI_RECV_CRC_BAD          NICLAB_U(0x4)
/* Ring bytes a message of n bytes takes. */
#define LANAI_RECV_SLOT_BYTES(n)    (LANAI_RECV_DESC_BYTES + (((n) + 15u) & ~15u))

/* ---- The card's PCI memory window (BAR 0) as the host sees it: SRAM at offset 0. */
#define LANAI_PCI_SRAM_OFFSET       NICLAB_U(0x0)

#endif /* NICLAB_FW_LANAI_H */
