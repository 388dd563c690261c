#pragma once
// Native multicast, offered by the systems whose host library has it (GRIM's NI
// recycling, seed 004 §8.1). A system model that has it derives from GroupModel beside
// SystemModel, the way every model offers its transports through SystemModel; the
// experiments find it through group_model() and know no system by name. Kept out of
// system_model.hpp: one system has it, and every system's build would pay for it.
#include <memory>
#include <string>
#include <vector>

#include "niclab/msg/group.hpp"
#include "niclab/system/system_model.hpp"

namespace niclab::system {

class GroupModel {
public:
    virtual ~GroupModel() = default;
    // Node `node`'s native multicast, for one benchmark run; Error if the node cannot
    // (its firmware is not the system's).
    virtual std::unique_ptr<msg::GroupMessaging> open_group_messaging(System& sys, uint32_t node) const = 0;
};

// `model`'s native multicast, or null if it has none.
inline const GroupModel* group_model(const SystemModel& model) { return dynamic_cast<const GroupModel*>(&model); }

// The names of the systems that have native multicast (for error messages).
inline std::vector<std::string> systems_with_group_messaging() {
    std::vector<std::string> out;
    for (const SystemModel* m : system_models())
        if (group_model(*m)) out.push_back(m->name());
    return out;
}

}  // namespace niclab::system
