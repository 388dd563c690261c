// Experiments run over the system's transports: the transport and op are resolved
// against what the system offers and recorded in the result; anything else is an
// ExperimentError that names what the system does offer.
#include "exp_test_support.hpp"

#include "niclab/system/system_model.hpp"

namespace niclab::exp {
namespace {

using testing::seastar_pair;

std::string error_of(const std::string& experiment, const nlohmann::json& options) {
    try {
        run_experiment(experiment, seastar_pair(), options);
    } catch (const ExperimentError& e) {
        return e.what();
    }
    return "";
}

TEST(Transports, DefaultsAreTheSystemsFirstTransportAndOp) {
    auto r = run_experiment("pingpong", seastar_pair(), {{"sizes", {8}}});
    EXPECT_EQ(r.params.at("transport"), "portals");
    EXPECT_EQ(r.params.at("op"), "put");
    EXPECT_EQ(r.system.at("system"), "seastar");
    EXPECT_TRUE(r.system.at("hardware").contains("bus"));
}

TEST(Transports, AnUnknownTransportNamesWhatTheSystemOffers) {
    const std::string e = error_of("pingpong", {{"transport", "pio"}, {"sizes", {8}}});
    EXPECT_NE(e.find("no transport 'pio'"), std::string::npos) << e;
    EXPECT_NE(e.find("portals (put/get)"), std::string::npos) << e;
}

TEST(Transports, AnUnsupportedOpNamesWhatTheSystemOffers) {
    const std::string e = error_of("logp_signature", {{"op", "send"}, {"m", {1}}});
    EXPECT_NE(e.find("no op 'send'"), std::string::npos) << e;
    EXPECT_NE(e.find("portals (put/get)"), std::string::npos) << e;
}

TEST(Transports, ASizeBeyondTheTransportIsRefusedNamingTheKey) {
    const std::string e = error_of("logp_signature", {{"size", uint64_t(1) << 31}, {"m", {1}}});
    EXPECT_NE(e.find("option 'size'"), std::string::npos) << e;
    EXPECT_NE(e.find("at most"), std::string::npos) << e;
    // The size sweeps (pingpong, bidir, comms, cpu_load) check before they run.
    for (const char* experiment : {"pingpong", "bidir", "comms1", "cpu_load", "stream"}) {
        const std::string s = error_of(experiment, {{"sizes", {uint64_t(1) << 31}}});
        EXPECT_NE(s.find("option 'sizes'"), std::string::npos) << experiment << ": " << s;
    }
}

// Every registered experiment runs on every system over its default transport.
TEST(Transports, EveryExperimentRunsOnEverySystem) {
    for (const system::SystemModel* m : system::system_models()) {
        system::SystemSpec spec = system::SystemSpec::from_json({{"system", m->name()}, {"nodes", 2}});
        if (m->name() == "seastar") spec = seastar_pair();
        if (m->name() == "grim") spec.firmware = {std::string(NICLAB_FIRMWARE_DIR) + "/grim/grim.elf"};
        for (const auto& info : experiments()) {
            SCOPED_TRACE(m->name() + " " + info.name);
            nlohmann::json options = {{"sizes", {8, 64}}};
            if (info.name == "logp_signature") options = {{"m", {1, 2, 4}}, {"delays_us", {0, 5}}, {"size", 8}};
            if (info.name == "prtt") options = {{"sizes", {8, 64}}, {"n", 4}};
            // Packet sizes every network carries (the T9000's packets hold at most 32 bytes).
            if (info.name == "net_throughput") options = {{"sizes", {8, 32}}};
            if (info.name == "halo3d") options = {{"nx", 2}, {"ny", 2}, {"nz", 2}, {"iterations", 2}};
            // GRIM's multicast is its library's: other systems are refused by name.
            if (info.name == "multicast" && m->name() != "grim") {
                EXPECT_THROW(run_experiment(info.name, spec, options), ExperimentError);
                continue;
            }
            Result r = run_experiment(info.name, spec, options);
            EXPECT_GT(r.rows(), 0u);
            EXPECT_EQ(r.system.at("system"), m->name());
        }
    }
}

}  // namespace
}  // namespace niclab::exp
