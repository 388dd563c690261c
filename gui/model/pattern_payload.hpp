#pragma once
// The payload an injector form describes: a pattern the user typed, repeated to the
// length sent; an empty pattern is the bytes 0, 1, .. 255, 0, .. (every byte value).
#include <cstdint>
#include <string>

namespace niclab::gui {

inline std::string pattern_payload(const std::string& pattern, uint64_t length) {
    std::string out(length, '\0');
    for (uint64_t i = 0; i < length; ++i) out[i] = pattern.empty() ? char(i & 0xff) : pattern[i % pattern.size()];
    return out;
}

}  // namespace niclab::gui
