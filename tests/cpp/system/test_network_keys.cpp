// The network parameters each system sets per network (payload capacity, wire
// overhead, vnets, flit size, switching) are preset keys with the values the systems
// always used, and a spec can switch a system's network to wormhole.
#include <gtest/gtest.h>

#include "niclab/net/network_error.hpp"
#include "niclab/system/config_error.hpp"
#include "niclab/system/system.hpp"

namespace niclab::system {
namespace {

using nlohmann::json;

TEST(NetworkKeys, PresetsGiveTheValuesTheSystemsUsed) {
    const Preset seastar = Preset::named("seastar");
    EXPECT_EQ(seastar.integer("net.max_payload"), 64);   // seed 001 §2
    EXPECT_EQ(seastar.integer("net.overhead_bytes"), 26);  // the model's header + link CRC
    EXPECT_EQ(seastar.integer("net.vnets"), 1);
    EXPECT_EQ(seastar.integer("net.flit_bytes"), 0);
    EXPECT_EQ(seastar.integer("net.wormhole"), 0);
    const net::NetworkParams np = seastar.model().network_params(seastar);
    EXPECT_EQ(np.max_payload, 64u);
    EXPECT_EQ(np.link.overhead_bytes, 26u);
    EXPECT_EQ(np.switching, net::Switching::VirtualCutThrough);

    const Preset startx = Preset::named("startx");
    const net::NetworkParams sx = startx.model().network_params(startx);
    EXPECT_EQ(sx.max_payload, 96u);
    EXPECT_EQ(sx.vnets, 2u);
    EXPECT_EQ(sx.flit_bytes, 0u);
    EXPECT_EQ(sx.switching, net::Switching::VirtualCutThrough);
}

TEST(NetworkKeys, AStartxLineOfRoutersCanRunWormhole) {
    System sys(SystemSpec::from_json({{"system", "startx"},
                                      {"nodes", 4},
                                      {"topology", {{"kind", "mesh"}, {"dims", {4, 1, 1}}}},
                                      {"set",
                                       {{"net.wormhole", 1},
                                        {"net.flit_bytes", 8},
                                        {"net.input_buffers", 2},
                                        {"net.receive_buffers", 13}}}}));
    EXPECT_EQ(sys.network()->params().switching, net::Switching::Wormhole);
    EXPECT_EQ(sys.network()->params().input_buffers, 2u);
}

TEST(NetworkKeys, WormholeWithoutFlitsIsANamedError) {
    EXPECT_THROW(System(SystemSpec::from_json({{"preset", "seastar"}, {"nodes", 4}, {"set", {{"net.wormhole", 1}}}})),
                 net::NetworkError);
    try {
        System(SystemSpec::from_json({{"preset", "seastar"}, {"nodes", 2}, {"set", {{"net.vnets", 5}}}}));
        FAIL() << "vnets = 5 accepted";
    } catch (const ConfigError& e) {
        EXPECT_EQ(e.key_path(), "set.net.vnets");
    }
}

}  // namespace
}  // namespace niclab::system
