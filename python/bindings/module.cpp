// The niclab._niclab extension module: a thin face over the C++ core. Experiment and
// device logic live in C++; this only converts types and releases the GIL.
#include "bindings.hpp"

#include <string>

#include "niclab/sim/version.hpp"

PYBIND11_MODULE(_niclab, m) {
    m.doc() = "niclab C++ core: simulated NICs running real RV32IM firmware";
    m.attr("__version__") = std::string(niclab::simulator_version());
    niclab::bindings::register_errors(m);
    niclab::bindings::bind_nic(m);
    niclab::bindings::bind_system(m);
    niclab::bindings::bind_trace(m);
    niclab::bindings::bind_portals(m);
    niclab::bindings::bind_startx(m);
    niclab::bindings::bind_dsnic(m);
    niclab::bindings::bind_grim(m);
    niclab::bindings::bind_grim_mc(m);
    niclab::bindings::bind_grim_sockets(m);
    niclab::bindings::bind_exp(m);
    niclab::bindings::bind_fits(m);
    niclab::bindings::bind_gdb(m);
}
