#pragma once
// Base of every typed niclab error. Each layer derives its own (ConfigError,
// FirmwareImageError, FirmwareFault, ...) so callers and the Python bindings can
// tell bad input apart by type, and the message names what is wrong.
#include <stdexcept>
#include <string>

namespace niclab {

class Error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace niclab
