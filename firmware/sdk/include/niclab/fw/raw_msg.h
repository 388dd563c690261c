/* The mailbox protocol of the raw_msg example firmware (firmware/examples/raw_msg.c),
 * shared with its C++ host driver (niclab/msg/raw_nic.hpp). */
#ifndef NICLAB_EXAMPLES_RAW_MSG_H
#define NICLAB_EXAMPLES_RAW_MSG_H

/* Command words. */
#define RAW_CMD_OP       0
#define RAW_CMD_TAG      1
#define RAW_CMD_DST      2   /* send only */
#define RAW_CMD_ADDR_LO  3   /* host buffer */
#define RAW_CMD_ADDR_HI  4
#define RAW_CMD_LENGTH   5   /* send: bytes; receive: buffer size */
#define RAW_CMD_SEND     1u
#define RAW_CMD_RECV     2u

/* Result words. */
#define RAW_RES_OP       0
#define RAW_RES_TAG      1
#define RAW_RES_STATUS   2   /* NICLAB_DMA_* */
#define RAW_RES_BYTES    3
#define RAW_RES_SRC      4   /* receive: the sending node */
#define RAW_RES_SENT     1u
#define RAW_RES_RECEIVED 2u

#endif
