#pragma once
// GRIM's native multicast for the multicast benchmark (msg/group.hpp), offered through
// the system model (system/group_model.hpp; model.cpp).
#include <cstdint>
#include <memory>

#include "niclab/msg/group.hpp"
#include "niclab/system/system.hpp"

namespace niclab::grim {

std::unique_ptr<msg::GroupMessaging> make_group_messaging(system::System& sys, uint32_t node);

}  // namespace niclab::grim
