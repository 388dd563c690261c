#pragma once
// The CERN DSNIC in the registry of systems (seed 003 Parts 2 and 3): a fixed-function
// PCI board (AMCC S5933, STC101, FPGA firmware) in 200 MHz Pentium Pro PCs under Linux
// 2.0.27, an interrupt-driven kernel driver, CSP channels, IEEE 1355 DS links and C104s.
#include <cstdint>

#include "niclab/system/system.hpp"
#include "niclab/system/system_model.hpp"
#include "niclab/systems/dsnic/board.hpp"
#include "niclab/systems/dsnic/driver.hpp"

namespace niclab::dsnic {

const system::SystemModel& model();

// The network for a preset: the DS-link part, with the NIC's link buffer able to take
// one whole packet of the run's size (the network hands packets over at their tail).
net::NetworkParams network_params(const system::Preset& preset);

// A DSNIC node's board and driver (niclab::Error naming the system if it is not one).
Board& board(system::System& sys, size_t node);
Driver& driver(system::System& sys, size_t node);

}  // namespace niclab::dsnic
