#pragma once
// How an injection runs the cluster: in short slices of simulated time until every host
// process it started is finished (or failed), a node's NIC faults, nothing is left to
// do, or its patience is spent; short slices, so it stops soon after the last step.
#include <vector>

#include "niclab/host/process.hpp"
#include "niclab/sim/time.hpp"
#include "niclab/system/system.hpp"

namespace niclab::gui {

// The nodes whose NIC faulted meanwhile (empty: none).
std::vector<size_t> run_until_done(system::System& sys, const std::vector<const host::Process*>& procs, Time patience);

}  // namespace niclab::gui
