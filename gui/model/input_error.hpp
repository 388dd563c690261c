#pragma once
// What the user typed or picked cannot be used (an option value, a spec file): the GUI
// shows the message in a dialog; it names the field or file.
#include <cstddef>
#include <string>

#include "niclab/sim/error.hpp"

namespace niclab::gui {

class InputError : public Error {
public:
    using Error::Error;
};

// InputError naming `field` ("target node") unless `node` is one of the system's `nodes`.
inline void check_node(const char* field, size_t node, size_t nodes) {
    if (node >= nodes)
        throw InputError(std::string(field) + " " + std::to_string(node) + ": the system has nodes 0.." + std::to_string(nodes - 1));
}

}  // namespace niclab::gui
