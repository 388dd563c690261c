#include "model/spec_choice.hpp"

#include <fstream>
#include <sstream>

#include "model/firmware_images.hpp"
#include "model/input_error.hpp"
#include "niclab/net/topology_registry.hpp"
#include "niclab/net/topology_text.hpp"
#include "niclab/system/config_error.hpp"
#include "niclab/system/system.hpp"
#include "niclab/system/system_model.hpp"

namespace niclab::gui {

namespace {

nlohmann::json read_spec_file(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw InputError("spec file '" + path + "': cannot be read (no such file, or no permission)");
    std::stringstream text;
    text << in.rdbuf();
    try {
        return nlohmann::json::parse(text.str());
    } catch (const nlohmann::json::parse_error& e) {
        throw InputError("spec file '" + path + "': not JSON (" + e.what() + ")");
    }
}

}  // namespace

system::SystemSpec build_spec(const SpecChoice& choice) {
    nlohmann::json j;
    if (!choice.spec_file.empty()) {
        j = read_spec_file(choice.spec_file);
    } else {
        j = {{"preset", choice.preset}, {"nodes", choice.nodes}, {"seed", choice.seed}};
        if (!choice.topology.empty()) {
            try {
                j["topology"] = net::topology_from_text(choice.topology);
            } catch (const net::TopologyConfigError& e) {
                throw system::ConfigError(e.key_path(), e.problem());
            }
        }
    }
    system::SystemSpec spec = system::SystemSpec::from_json(j);
    // Image names become paths here, as the Python API resolves them before the core
    // sees the spec; a spec naming none gets its system's own firmware (Portals on the
    // SeaStar, none on a fixed-function NIU).
    if (spec.firmware.empty()) {
        const std::string fw = system::resolved_preset(spec).model().default_firmware(spec.nodes);
        if (!fw.empty()) spec.firmware = {fw};
    }
    for (auto& fw : spec.firmware) fw = resolve_firmware(fw);
    return spec;
}

}  // namespace niclab::gui
