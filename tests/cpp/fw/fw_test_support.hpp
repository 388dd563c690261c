#pragma once
// Shared by the fw tests: the good firmware ELF the firmware build produces, and a
// scratch directory for broken copies of it.
#include <stdlib.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>
#include <vector>

#include <gtest/gtest.h>
#include "test_support.hpp"

namespace niclab::fw::test {

using niclab::test::TempDir;

// Built by the firmware ExternalProject (firmware/examples/hello.c).
inline std::filesystem::path hello_elf() {
    return std::filesystem::path(NICLAB_FIRMWARE_DIR) / "examples" / "hello.elf";
}

inline std::vector<uint8_t> read_bytes(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}


}  // namespace niclab::fw::test
