#pragma once
// What describes an embedded-core NIC apart from its devices: the core, the SRAM and
// where it sits in the address space, the control block's place, the MMIO timing and
// the boot timeout. A system fills it from its preset (the SeaStar: SeaStarConfig).
#include <cstdint>

#include "niclab/core/core_config.hpp"
#include "niclab/fw/core_hw.h"
#include "niclab/fw/firmware_image.hpp"
#include "niclab/nic/memory_map.hpp"
#include "niclab/sim/time.hpp"

namespace niclab::nic {

struct EmbeddedNicConfig {
    core::CoreConfig core;
    // Size and the two views of the SRAM; firmware images are checked against it and
    // the boot block (core_hw.h offsets) is found at its uncached base.
    fw::SramLayout sram = fw::default_sram_layout();
    uint32_t control_base = NICLAB_CTRL_BASE;  // the control block's registers
    MmioTiming mmio;
    Time boot_timeout = Time::ms(1);  // the firmware must set its running flag by then
    uint32_t node_id = 0;
};

}  // namespace niclab::nic
