#include "niclab/sim/version.hpp"

namespace niclab {

std::string_view simulator_version() { return NICLAB_VERSION; }

}  // namespace niclab
