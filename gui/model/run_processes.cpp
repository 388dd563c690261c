#include "model/run_processes.hpp"

namespace niclab::gui {

std::vector<size_t> run_until_done(system::System& sys, const std::vector<const host::Process*>& procs, Time patience) {
    const Time start = sys.now();
    auto finished = [&] {
        for (const auto* p : procs)
            if (!p->done()) return false;
        return true;
    };
    while (!finished() && sys.now() - start < patience) {
        const Time before = sys.now();
        const auto r = sys.run_for(Time::us(5));
        if (!r.faulted_nodes.empty()) return r.faulted_nodes;
        if (sys.now() == before) break;  // idle: nothing left that could finish them
    }
    return {};
}

}  // namespace niclab::gui
