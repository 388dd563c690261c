/*
 * Figure 4.2's header in network byte order (big endian, L969): the LANai core and
 * the x86 hosts are little-endian, so every header word crosses a byte swap here
 * and the cost of converting shows in the firmware's time, as on the card.
 */
#include "grim.h"

/* RV32IM has no byte-swap instruction and gcc would call libgcc's __bswapsi2; the
 * LANai itself is big-endian and needs no swap at all, so the swap is kept inline
 * and short (the model's little-endian core pays it, the card did not). */
static inline uint32_t swap32(uint32_t v)
{
    return (v >> 24) | ((v >> 8) & 0xFF00u) | ((v & 0xFF00u) << 8) | (v << 24);
}

uint32_t wire_load(uint32_t sram_offset)
{
    return swap32(*sram_word(sram_offset));
}

void wire_store(uint32_t sram_offset, uint32_t value)
{
    *sram_word(sram_offset) = swap32(value);
}

void wire_read_header(uint32_t sram_offset, struct grim_header *h, unsigned words)
{
    for (unsigned i = 0; i < words; ++i)
        h->w[i] = wire_load(sram_offset + 4u * i);
}

uint32_t wire_payload_bytes(const struct grim_header *h)
{
    /* Payload correction: the payload is padded to whole words; the correction says
     * how many of the last word's bytes are padding (L991). */
    return GRIM_W2_WORDS(h->w[2]) * 4u - GRIM_W1_PCORR(h->w[1]);
}
