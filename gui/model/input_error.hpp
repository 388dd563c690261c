#pragma once
// What the user typed or picked cannot be used (an option value, a spec file): the GUI
// shows the message in a dialog; it names the field or file.
#include "niclab/sim/error.hpp"

namespace niclab::gui {

class InputError : public Error {
public:
    using Error::Error;
};

}  // namespace niclab::gui
