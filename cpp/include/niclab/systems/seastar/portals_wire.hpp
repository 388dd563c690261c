#pragma once
// What the SeaStar's two Portals drivers (generic SsNal, accelerated AccelNal) do
// alike to the bytes of a message: the very-small-message packing (seed 000 §5.2) and
// the mailbox words of a contiguous transmit or deposit (niclab/fw/portals_fw.h).
#include <array>
#include <cstdint>

#include "niclab/fw/portals_fw.h"
#include "niclab/host/host_memory.hpp"
#include "niclab/msg/portals/library.hpp"

namespace niclab::seastar {

using MailboxWords = std::array<uint32_t, 8>;

// A payload of 1..PTL_INLINE_BYTES travels inside the header: copy it there, mark the
// header PTL_HDR_INLINE and drop the payload regions. True if it did.
bool pack_inline(portals::Send& s, host::HostMemory& memory);
// A header-only message matched for deposit: copy its inline payload (if it has one)
// to the regions the library chose. Returns the bytes the deposit covers.
uint64_t unpack_inline(const ptl_hdr& hdr, const portals::Receive& r, host::HostMemory& memory);

// Takes the next event of an event queue in host memory (`entries` slots of
// PTL_EQ_BYTES at `base`, the reader at `head`): a slot holds one while its word 0 is
// set; the reader clears word 0 and moves on (portals_fw.h). False when it is empty.
bool take_event(host::HostMemory& memory, uint64_t base, uint32_t entries, uint32_t& head, uint32_t (&ev)[4]);

// PTL_CMD_TX of `pending` to `dst`; the payload is at most one region.
MailboxWords tx_words(uint32_t pending, const portals::Send& s);
// PTL_CMD_RX of `pending` into at most one region (none: discard).
MailboxWords rx_words(uint32_t pending, const portals::Regions& regions, uint64_t mlength);

}  // namespace niclab::seastar
