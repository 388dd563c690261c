#pragma once
// Building a firmware image from C in the GUI: the SDK's one recipe
// (firmware/sdk/build_firmware.cmake, which niclab.sdk runs too) as a `cmake -P`
// command for a QProcess, and what the GUI needs of its outcome — the image, the
// size report, and the compiler's first error with its file and line.
#include <string>
#include <vector>

namespace niclab::gui {

struct FirmwareBuildRequest {
    std::string source;   // a C file
    bool trace = false;   // the trace points of niclab/fw/trace.h on
};

struct FirmwareBuildPlan {
    std::string program;             // cmake
    std::vector<std::string> args;   // -D... -P <sdk>/build_firmware.cmake
    std::string name;                // the image's name: the source's stem as a C identifier
    std::string elf, size_report;    // what a successful build writes
};

// Throws InputError naming the source when it does not exist or cmake is missing.
// The image goes next to the source (as `niclab fw build` run there would put it).
FirmwareBuildPlan plan_firmware_build(const FirmwareBuildRequest& request);

struct CompilerMessage {
    std::string file;
    int line = 0;
    std::string text;  // the whole line: "blink.c:4:12: error: ..."
};
// The compiler's and linker's error lines of a build log, first first.
std::vector<CompilerMessage> compiler_errors(const std::string& log);

}  // namespace niclab::gui
