#pragma once
// Shared by the nic tests: example firmware paths, one-line System construction
// from a JSON spec, symbol lookup, and a scratch directory for broken images.
#include <stdlib.h>

#include <cerrno>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "niclab/system/system.hpp"
#include "test_support.hpp"

namespace niclab::test {

// Built by the firmware ExternalProject (firmware/examples/<name>.c).
inline std::filesystem::path firmware(const std::string& name) {
    return std::filesystem::path(NICLAB_FIRMWARE_DIR) / "examples" / (name + ".elf");
}

// A SeaStar system from a spec; "firmware" entries are example names.
inline std::unique_ptr<system::System> make_system(nlohmann::json spec = nlohmann::json::object()) {
    if (spec.contains("firmware")) {
        auto& fw = spec["firmware"];
        if (fw.is_string()) fw = firmware(fw.get<std::string>()).string();
        else
            for (auto& f : fw) f = firmware(f.get<std::string>()).string();
    }
    return std::make_unique<system::System>(system::SystemSpec::from_json(spec));
}

// Address of a firmware symbol; fails the test if the image has no such symbol.
inline uint32_t symbol(const nic::EmbeddedNic& nic, const std::string& name) {
    uint32_t address = 0;
    EXPECT_NE(nic.image(), nullptr);
    if (nic.image() && !nic.image()->find_symbol(name, address)) ADD_FAILURE() << "no symbol " << name;
    return address;
}

inline std::vector<uint8_t> read_bytes(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The 1-based line of the first line of `source` containing `needle`, so tests
// that check "file.c:LINE" in fault messages follow edits to the firmware.
inline int source_line(const std::string& source, const std::string& needle) {
    std::ifstream in(std::filesystem::path(NICLAB_SOURCE_DIR) / "firmware" / "examples" / source);
    std::string line;
    for (int n = 1; std::getline(in, line); ++n)
        if (line.find(needle) != std::string::npos) return n;
    ADD_FAILURE() << needle << " not in " << source;
    return 0;
}

inline std::string hex32(uint32_t v) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08x", v);
    return buf;
}


}  // namespace niclab::test
