// A node's counters read with their names and read as values only (the GUI's snapshot
// of every node): the same values in the same order, and a layout that tells apart two
// lists of names and only those.
#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <utility>

#include "niclab/system/counters.hpp"
#include "niclab/system/system.hpp"

namespace niclab::system {
namespace {

// Runs `sys` a little, so that the counters are not all zero, and checks each node.
void expect_values_only_read_alike(System& sys) {
    sys.run_until(Time::us(20));
    for (size_t n = 0; n < sys.node_count(); ++n) {
        SCOPED_TRACE("node " + std::to_string(n));
        const Counters named = sys.counters(n);
        Counters values = Counters::values_only();
        sys.counters(n, values);
        EXPECT_TRUE(values.items().empty());
        ASSERT_EQ(values.values().size(), named.items().size());
        for (size_t i = 0; i < named.items().size(); ++i) EXPECT_EQ(values.values()[i], named.items()[i].second) << named.items()[i].first;
        EXPECT_EQ(values.layout(), named.layout());
    }
}

TEST(Counters, ValuesOnlyReadTheSameValuesInTheSameOrder) {
    SystemSpec seastar;
    seastar.nodes = 2;
    seastar.firmware = {std::string(NICLAB_FIRMWARE_DIR) + "/portals/portals.elf"};
    System a(seastar);
    expect_values_only_read_alike(a);
    System b(SystemSpec::from_json({{"system", "startx"}, {"nodes", 2}}));
    expect_values_only_read_alike(b);
    EXPECT_GT(a.counters(0).find("core.instructions").value_or(0), 0u);
}

Counters counters_of(std::initializer_list<std::pair<const char*, uint64_t>> items) {
    Counters c;
    for (const auto& [name, value] : items) c.add(name, value);
    return c;
}

TEST(Counters, TheLayoutFollowsTheNamesAndTheirOrderNotTheValues) {
    const Counters one = counters_of({{"core.instructions", 1}, {"net.tx_packets", 2}});
    const Counters same = counters_of({{"core.instructions", 1}, {"net.tx_packets", 2}});
    const Counters other_values = counters_of({{"core.instructions", 7}, {"net.tx_packets", 9}});
    const Counters reordered = counters_of({{"net.tx_packets", 2}, {"core.instructions", 1}});
    const Counters renamed = counters_of({{"core.instructions", 1}, {"net.rx_packets", 2}});
    // The same characters, cut between the names elsewhere.
    const Counters split = counters_of({{"core.instructionsnet", 1}, {".tx_packets", 2}});
    EXPECT_EQ(one.layout(), same.layout());
    EXPECT_EQ(one.layout(), other_values.layout());
    EXPECT_NE(one.layout(), reordered.layout());
    EXPECT_NE(one.layout(), renamed.layout());
    EXPECT_NE(one.layout(), split.layout());
    EXPECT_NE(one.layout(), Counters{}.layout());
}

// Two systems of different kinds count different things: their layouts differ, so a
// reader that shares names by layout never gives one system's names to the other's values.
TEST(Counters, SystemsOfDifferentKindsHaveDifferentLayouts) {
    SystemSpec seastar;
    seastar.nodes = 2;
    System a(seastar);
    System b(SystemSpec::from_json({{"system", "startx"}, {"nodes", 2}}));
    EXPECT_NE(a.counters(0).layout(), b.counters(0).layout());
    EXPECT_EQ(a.counters(0).layout(), a.counters(1).layout());
}

}  // namespace
}  // namespace niclab::system
