#pragma once
// A network described or driven wrongly: bad topology dimensions, a destination
// that does not exist, an oversized packet, an impossible bit error rate.
#include "niclab/sim/error.hpp"

namespace niclab::net {

class NetworkError : public Error {
public:
    using Error::Error;
};

}  // namespace niclab::net
