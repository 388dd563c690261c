// The registry of systems: every system is found by name, declares the parameters its
// presets set, names its transports and its published results; specs may name a
// system instead of a preset, and a mismatch names the key.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <string>

#include "niclab/system/config_error.hpp"
#include "niclab/system/published.hpp"
#include "niclab/system/system.hpp"
#include "niclab/system/system_model.hpp"

namespace niclab::system {
namespace {

using nlohmann::json;

TEST(Registry, EverySystemIsFoundByNameAndHasAPreset) {
    ASSERT_FALSE(system_models().empty());
    EXPECT_EQ(system_models().front()->name(), "seastar");
    for (const SystemModel* m : system_models()) {
        SCOPED_TRACE(m->name());
        EXPECT_EQ(&system_model(m->name()), m);
        EXPECT_FALSE(m->summary().empty());
        EXPECT_TRUE(m->nic_family() == "embedded-core" || m->nic_family() == "fixed-function");
        const Preset p = Preset::named(m->default_preset());
        EXPECT_EQ(p.system(), m->name());
        // Transports: named, with at least one op and a size limit.
        ASSERT_FALSE(m->transports().empty());
        std::set<std::string> names;
        for (const auto& t : m->transports()) {
            EXPECT_TRUE(names.insert(t.name).second) << "duplicate transport " << t.name;
            EXPECT_FALSE(t.ops.empty()) << t.name;
            EXPECT_GT(t.max_message, 0u) << t.name;
        }
    }
}

// The image a spec gets when it names none is built, for every size a spec may ask: none
// on a fixed-function NIU, and on the SeaStar the production image up to its peer table's
// 2,048 nodes and Red Storm's past it.
TEST(Registry, DefaultFirmwareIsABuiltImageForEverySize) {
    const std::filesystem::path dir = NICLAB_FIRMWARE_DIR;
    for (const SystemModel* m : system_models())
        for (uint32_t nodes : {1u, 2u, 2048u, 2049u, 10368u, 65536u}) {
            SCOPED_TRACE(m->name() + ", " + std::to_string(nodes) + " nodes");
            const std::string fw = m->default_firmware(nodes);
            if (m->nic_family() == "fixed-function") {
                EXPECT_EQ(fw, "");
                continue;
            }
            ASSERT_FALSE(fw.empty());
            bool built = false;
            for (const char* folder : {"portals", "grim", "examples"}) built = built || std::filesystem::exists(dir / folder / (fw + ".elf"));
            EXPECT_TRUE(built) << fw << ".elf is not in " << dir;
        }
    EXPECT_EQ(system_model("seastar").default_firmware(2048), "portals");
    EXPECT_EQ(system_model("seastar").default_firmware(2049), "portals_redstorm");
}

TEST(Registry, UnknownSystemListsTheKnownOnes) {
    try {
        system_model("cm5");
        FAIL() << "no error";
    } catch (const ConfigError& e) {
        EXPECT_EQ(e.key_path(), "system");
        EXPECT_NE(std::string(e.what()).find("seastar"), std::string::npos) << e.what();
    }
}

TEST(Registry, PublishedResultsCiteTheirSource) {
    for (const SystemModel* m : system_models()) {
        const json& pub = m->published();
        ASSERT_TRUE(pub.is_array()) << m->name();
        EXPECT_FALSE(pub.empty()) << m->name();
        std::set<std::string> keys;
        for (const json& e : pub) {
            SCOPED_TRACE(m->name() + " " + e.dump());
            EXPECT_TRUE(keys.insert(e.at("key").get<std::string>()).second);
            EXPECT_FALSE(e.at("source").get<std::string>().empty());
            EXPECT_FALSE(e.at("quantity").get<std::string>().empty());
            EXPECT_TRUE(e.at("value").is_number());
            EXPECT_TRUE(e.contains("unit"));
        }
    }
    EXPECT_TRUE(published("no-such-system").empty());
}

TEST(Registry, ASpecMayNameTheSystemInsteadOfThePreset) {
    System sys(SystemSpec::from_json({{"system", "seastar"}}));
    EXPECT_EQ(sys.preset().name(), "seastar");
    EXPECT_EQ(sys.model().name(), "seastar");
    EXPECT_EQ(sys.spec().to_json().at("system"), "seastar");
}

TEST(Registry, SystemAndPresetMustAgree) {
    for (const SystemModel* m : system_models()) {
        if (m->name() == "seastar") continue;
        try {
            System sys(SystemSpec::from_json({{"system", m->name()}, {"preset", "seastar"}}));
            FAIL() << "no error for " << m->name();
        } catch (const ConfigError& e) {
            EXPECT_EQ(e.key_path(), "system");
        }
    }
    try {
        System sys(SystemSpec::from_json({{"system", "nope"}}));
        FAIL() << "no error";
    } catch (const ConfigError& e) {
        EXPECT_EQ(e.key_path(), "system");
    }
}

TEST(Registry, ParametersAreTypedDoublesAndWholeWhereDeclared) {
    // The SeaStar declares whole numbers only: a fraction is refused, naming the key.
    try {
        System sys(SystemSpec::from_json({{"set", {{"net.router_delay_ns", 50.5}}}}));
        FAIL() << "no error";
    } catch (const ConfigError& e) {
        EXPECT_EQ(e.key_path(), "set.net.router_delay_ns");
        EXPECT_NE(std::string(e.what()).find("whole number"), std::string::npos) << e.what();
    }
    // A whole number written as a double is the same value.
    System sys(SystemSpec::from_json({{"set", {{"core.clock_mhz", 400.0}}}}));
    EXPECT_EQ(sys.preset().value("core.clock_mhz"), 400.0);
    EXPECT_EQ(sys.preset().values_json().at("core.clock_mhz"), json(400));
}

TEST(Registry, AFixedFunctionSystemRefusesFirmware) {
    for (const SystemModel* m : system_models()) {
        if (m->nic_family() != "fixed-function") continue;
        try {
            System sys(SystemSpec::from_json({{"system", m->name()}, {"nodes", 2}, {"firmware", "x.elf"}}));
            FAIL() << "no error for " << m->name();
        } catch (const ConfigError& e) {
            EXPECT_EQ(e.key_path(), "firmware");
        }
        System sys(SystemSpec::from_json({{"system", m->name()}, {"nodes", 2}}));
        EXPECT_THROW(sys.nic(0), Error);
    }
}

}  // namespace
}  // namespace niclab::system
