/*
 * Build options of the C Portals firmware (seed 000 §5) and its pool sizes
 * (seed 000 §4.2). Each image in firmware/portals/CMakeLists.txt sets some of these
 * with -D; everything else takes the default below, which is the production image.
 */
#ifndef PTL_CONFIG_H
#define PTL_CONFIG_H

#include "niclab/fw/portals_fw.h"
#include "niclab/fw/trace.h"

/* §5.1: caches. 0 none, 1 instruction cache, 3 instruction and data cache. */
#ifndef PTL_CACHES
#define PTL_CACHES 3
#endif
/* §5.2: very small messages complete with the header (one interrupt, not two). */
#ifndef PTL_VSMALL
#define PTL_VSMALL 1
#endif
/* §5.3: cached shadows of the NIC control block and of FIFO indices. */
#ifndef PTL_WRITE_THROUGH
#define PTL_WRITE_THROUGH 1
#endif
/* §5.4: the current process/source/pending pointers live in s11/s10/s9. */
#ifndef PTL_PIN_GLOBALS
#define PTL_PIN_GLOBALS 1
#endif

/* §4.2: 1,024 sources and 1,274 pendings for the generic process, split into the
 * host-managed TX pool and the firmware-managed RX pool. */
#ifndef PTL_SOURCES
#define PTL_SOURCES 1024
#endif
#ifndef PTL_TX_PENDINGS
#define PTL_TX_PENDINGS 256
#endif
#ifndef PTL_RX_PENDINGS
#define PTL_RX_PENDINGS 1018
#endif
/* DMA regions for non-contiguous buffers (PTL_CMD_SEG), shared by all pendings. */
#ifndef PTL_SEGMENTS
#define PTL_SEGMENTS 512
#endif
/* Buckets of the source hash table: a power of two, one per source by default so
 * chains stay short whatever the node ids are. */
#ifndef PTL_HASH_BUCKETS
#define PTL_HASH_BUCKETS PTL_SOURCES
#endif

#define PTL_PENDINGS (PTL_TX_PENDINGS + PTL_RX_PENDINGS)

/* §4.3.3: what happens when a new message finds no RX pending or no source.
 * PANIC: the node panics, as the seed's firmware did ("we chose to panic the node").
 * GO_BACK_N: the "simple go-back-n protocol" the authors were working on: the receiver
 * drops the message and tells the sender to go back to it (gbn.h). */
#define PTL_EXHAUSTION_PANIC     0
#define PTL_EXHAUSTION_GO_BACK_N 1
#ifndef PTL_EXHAUSTION
#define PTL_EXHAUSTION PTL_EXHAUSTION_GO_BACK_N
#endif
#define PTL_GBN (PTL_EXHAUSTION == PTL_EXHAUSTION_GO_BACK_N)
#if PTL_GBN
/* assumption: node ids are below 2048, the largest SeaStar mesh niclab's scaling runs
 * build (the sequence-number table is indexed by node id, 16 bytes a node: 32 KB; the
 * seed's 1,024 sources bound the peers active at once, not the ids). A larger id
 * panics naming this option; Red Storm's 10,368 nodes run `portals_redstorm`. */
#ifndef PTL_PEERS
#define PTL_PEERS 2048
#endif
/* A peer's entry set up at its first message instead of at boot (a bitmap of the peers
 * seen, PTL_PEERS / 8 bytes, is what boot clears). Red Storm's image: a node of a 3-D
 * halo talks to six of its 10,368 peers, so boot need not write 166 KB of SRAM (which
 * a simulated node then holds, ~1.7 GB for the machine). Off in the other images, whose
 * message path it would lengthen by a bit test. */
#ifndef PTL_PEERS_LAZY
#define PTL_PEERS_LAZY 0
#endif
/* assumption: 4 reserved pendings carry the firmware's ACK/NACK headers, so a NACK
 * never needs the pool that ran out (like GRIM's buffered control messages). */
#ifndef PTL_CTRL_PENDINGS
#define PTL_CTRL_PENDINGS 4
#endif
/* assumption: a receiver acknowledges at least every 8 accepted messages from a peer
 * even while busy. */
#ifndef PTL_ACK_EVERY
#define PTL_ACK_EVERY 8
#endif
#else
#define PTL_CTRL_PENDINGS 0
#endif

/* §4.1: accelerated processes, "one or two on each Catamount compute node"; this
 * firmware supports 0 or 1 (a compile-time count, like every pool). Each has its own
 * process structure, mailbox and pending pools sized like the generic process's (§4.2:
 * "several more similarly sized pending pools can be supported"), so N = 2 in the SRAM
 * formula, plus its match entries and MDs in SRAM for matching in the firmware
 * (§4.3.2). */
#ifndef PTL_ACCEL
#define PTL_ACCEL 0
#endif
/* assumption: 64 portal table entries (the host library's default Limits) and 256
 * match entries and MDs for the accelerated process: no source gives the SeaStar's
 * numbers; these fit the 384 KB with the generic pools (pools_report). */
#ifndef PTL_ACCEL_PORTALS
#define PTL_ACCEL_PORTALS 64
#endif
#ifndef PTL_ACCEL_MES
#define PTL_ACCEL_MES 256
#endif
#ifndef PTL_ACCEL_MDS
#define PTL_ACCEL_MDS 256
#endif
#define PTL_PROCESSES (1 + PTL_ACCEL)

/* The pools' section (pools.ld): cached SRAM that crt0 does not clear. */
#define PTL_POOL __attribute__((section(".pools")))

_Static_assert(PTL_CACHES == 0 || PTL_CACHES == 1 || PTL_CACHES == 3, "PTL_CACHES is 0, 1 or 3");
_Static_assert((PTL_HASH_BUCKETS & (PTL_HASH_BUCKETS - 1)) == 0, "PTL_HASH_BUCKETS must be a power of two");
_Static_assert(PTL_ACCEL == 0 || PTL_ACCEL == 1, "PTL_ACCEL: 0 or 1 accelerated process");
_Static_assert(PTL_ACCEL_MES < 0xFFFF && PTL_ACCEL_MDS < 0xFFFF && PTL_ACCEL_PORTALS <= 0x10000, "16-bit references");
_Static_assert(PTL_PROCESSES * PTL_PENDINGS + PTL_CTRL_PENDINGS < 0xFFFF && PTL_SEGMENTS < 0xFFFF, "ids are 16 bits");
_Static_assert(PTL_EXHAUSTION == PTL_EXHAUSTION_PANIC || PTL_GBN, "PTL_EXHAUSTION is 0 (panic) or 1 (go-back-N)");
#if PTL_GBN
_Static_assert(PTL_CTRL_PENDINGS > 0 && PTL_CTRL_PENDINGS <= 32, "1 to 32 control pendings (a bit mask)");
_Static_assert(PTL_PEERS > 0 && PTL_PEERS < 0xFFFF, "peer links are 16 bits");
_Static_assert(PTL_ACK_EVERY > 0 && PTL_ACK_EVERY < 256, "rx_unacked is 8 bits");
#endif
_Static_assert(PTL_SOURCES > 0 && PTL_TX_PENDINGS > 0 && PTL_RX_PENDINGS > 0 && PTL_SEGMENTS > 0, "empty pool");

/* The features word of the NIC control block: what this image was built with. */
#define PTL_FEATURES                                                           \
    ((PTL_CACHES & 1 ? PTL_FW_FEAT_ICACHE : 0u) | (PTL_CACHES & 2 ? PTL_FW_FEAT_DCACHE : 0u) |  \
     (PTL_VSMALL ? PTL_FW_FEAT_VSMALL : 0u) | (PTL_WRITE_THROUGH ? PTL_FW_FEAT_WRITE_THROUGH : 0u) | \
     (PTL_PIN_GLOBALS ? PTL_FW_FEAT_PINNED : 0u) | (NICLAB_TRACE ? PTL_FW_FEAT_TRACE : 0u) |      \
     (PTL_GBN ? PTL_FW_FEAT_GO_BACK_N : 0u) | (PTL_ACCEL ? PTL_FW_FEAT_ACCEL : 0u))

#endif /* PTL_CONFIG_H */
