// The registry of modelled systems: the one place that lists them.
#include <algorithm>

#include "niclab/system/config_error.hpp"
#include "niclab/system/system_model.hpp"
#include "niclab/systems/dsnic/model.hpp"
#include "niclab/systems/grim/grim.hpp"
#include "niclab/systems/seastar/seastar.hpp"
#include "niclab/systems/startx/model.hpp"
#include "niclab/systems/t9000/model.hpp"

namespace niclab::system {

const std::vector<const SystemModel*>& system_models() {
    static const std::vector<const SystemModel*> models = {&seastar::model(), &startx::model(), &t9000::model(), &dsnic::model(), &grim::model()};
    return models;
}

const SystemModel& system_model(const std::string& name) {
    for (const SystemModel* m : system_models())
        if (m->name() == name) return *m;
    std::string known;
    for (const SystemModel* m : system_models()) known += (known.empty() ? "" : ", ") + m->name();
    throw ConfigError("system", "unknown system '" + name + "' (known: " + known + ")");
}

}  // namespace niclab::system
