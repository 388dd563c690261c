// What the SeaStar's NALs keep per firmware pending (seastar/pending_table.hpp): every id
// of both pools answers with its own entry, kept from use to use, whichever ids are used
// first, and neither pool's entries move when the other's grow.
#include <gtest/gtest.h>

#include <cstdint>

#include "niclab/systems/seastar/pending_table.hpp"

namespace niclab::test {
namespace {

TEST(PendingTable, EveryIdOfBothPoolsKeepsItsOwnEntry) {
    seastar::PendingTable<uint64_t> table(256, 1018);
    EXPECT_EQ(table.size(), 1274u);
    // An RX id far up first, then TX ids, then the RX ids below it and the pools' edges.
    table[1273] = 1273 + 1;
    for (uint32_t id = 0; id < 256; ++id) table[id] = id + 1;
    for (uint32_t id = 256; id < 1273; ++id) table[id] = id + 1;
    for (uint32_t id = 0; id < 1274; ++id) EXPECT_EQ(table[id], id + 1) << "pending " << id;
}

TEST(PendingTable, AnEntryNeverUsedIsEmptyAndAnEntryKeepsItsAddress) {
    seastar::PendingTable<uint64_t> table(4, 4);
    EXPECT_EQ(table[3], 0u);  // the TX pool's last id: all its entries made
    uint64_t& tx = table[1];
    tx = 7;
    EXPECT_EQ(table[2], 0u);  // never written
    EXPECT_EQ(table[7], 0u);  // an RX id: its pool grows, the TX pool's entries stay put
    EXPECT_EQ(&table[1], &tx);
    EXPECT_EQ(tx, 7u);
}

}  // namespace
}  // namespace niclab::test
