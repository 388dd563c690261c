#pragma once
// What the host keeps per firmware pending (a Portals message the NIC is moving), by the
// pending's id: the TX pool's ids first, then the RX pool's (seed 000 §4.2: 1,274 for the
// generic process). Each pool's entries are made up to the highest id of it in use so far,
// not for the whole pool: the host hands out its lowest free TX id first and the firmware
// its RX ids fresh only when its free list is empty (firmware/portals/pending.c), so a
// node with a few messages in flight keeps a few entries, not 1,274 (20 KB a SeaStar).
// An entry is made the first time its id is used, then never again.
#include <cstdint>
#include <vector>

namespace niclab::seastar {

template <typename T>
class PendingTable {
public:
    PendingTable() = default;
    PendingTable(uint32_t tx_pendings, uint32_t rx_pendings) : tx_(tx_pendings), ids_(tx_pendings + rx_pendings) {}
    // Ids run from 0 to size() - 1.
    uint32_t size() const { return ids_; }
    T& operator[](uint32_t id) {
        std::vector<T>& pool = id < tx_ ? tx_pool_ : rx_pool_;
        const uint32_t i = id < tx_ ? id : id - tx_;
        if (i >= pool.size()) pool.resize(i + 1);
        return pool[i];
    }

private:
    uint32_t tx_ = 0, ids_ = 0;
    std::vector<T> tx_pool_, rx_pool_;
};

}  // namespace niclab::seastar
