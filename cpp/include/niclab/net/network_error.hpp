#pragma once
// A network described or driven wrongly: bad topology dimensions, a destination
// that does not exist, an oversized packet, an impossible bit error rate.
#include <string>

#include "niclab/sim/error.hpp"

namespace niclab::net {

class NetworkError : public Error {
public:
    using Error::Error;
};

// A packet capture that cannot be made or written (capture.hpp): a tap on a node or
// link the network does not have, a file that cannot be written. `tap()` names the
// bad tap ("node 7", "link 99") and `path()` the file, whichever is at fault.
class CaptureError : public NetworkError {
public:
    CaptureError(const std::string& message, std::string tap, std::string path)
        : NetworkError(message), tap_(std::move(tap)), path_(std::move(path)) {}
    const std::string& tap() const { return tap_; }
    const std::string& path() const { return path_; }

private:
    std::string tap_;
    std::string path_;
};

}  // namespace niclab::net
