#include "niclab/systems/seastar/portals_wire.hpp"

#include <algorithm>

namespace niclab::seastar {

using namespace portals;

bool pack_inline(Send& s, host::HostMemory& memory) {
    if (s.length == 0 || s.length > PTL_INLINE_BYTES) return false;
    uint8_t* out = s.hdr.inline_data;
    for (const Region& r : s.payload) {
        memory.read(r.addr, {out, size_t(r.length)});
        out += r.length;
    }
    s.hdr.flags |= PTL_HDR_INLINE;
    s.payload.clear();
    return true;
}

uint64_t unpack_inline(const ptl_hdr& hdr, const Receive& r, host::HostMemory& memory) {
    uint64_t copied = 0;
    for (const Region& reg : r.regions) {
        const uint64_t n = std::min<uint64_t>(reg.length, r.mlength - copied);
        if (hdr.flags & PTL_HDR_INLINE) memory.write(reg.addr, {hdr.inline_data + copied, size_t(n)});
        copied += n;
    }
    return copied;
}

bool take_event(host::HostMemory& memory, uint64_t base, uint32_t entries, uint32_t& head, uint32_t (&ev)[4]) {
    const uint64_t slot = base + uint64_t(head) * PTL_EQ_BYTES;
    memory.read(slot, {reinterpret_cast<uint8_t*>(ev), sizeof ev});
    if (ev[PTL_EV_TYPE] == 0) return false;
    const uint32_t zero = 0;
    memory.write(slot, {reinterpret_cast<const uint8_t*>(&zero), sizeof zero});
    head = (head + 1) & (entries - 1);
    return true;
}

MailboxWords tx_words(uint32_t pending, const Send& s) {
    MailboxWords tx{};
    tx[PTL_CMD_OP] = PTL_CMD_TX;
    tx[PTL_TX_PENDING] = pending;
    tx[PTL_TX_DST] = s.dst;
    if (s.payload.size() == 1) {
        tx[PTL_TX_ADDR_LO] = uint32_t(s.payload[0].addr);
        tx[PTL_TX_ADDR_HI] = uint32_t(s.payload[0].addr >> 32);
        tx[PTL_TX_LENGTH] = uint32_t(s.payload[0].length);
    }
    return tx;
}

MailboxWords rx_words(uint32_t pending, const Regions& regions, uint64_t mlength) {
    MailboxWords rx{};
    rx[PTL_CMD_OP] = PTL_CMD_RX;
    rx[PTL_RX_PENDING] = pending;
    if (regions.size() == 1) {
        rx[PTL_RX_ADDR_LO] = uint32_t(regions[0].addr);
        rx[PTL_RX_ADDR_HI] = uint32_t(regions[0].addr >> 32);
        rx[PTL_RX_LENGTH] = uint32_t(std::min<uint64_t>(regions[0].length, mlength));
    }
    return rx;
}

}  // namespace niclab::seastar
