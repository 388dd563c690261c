#pragma once
// An embedded-core NIC (DESIGN.md, Systems): niclab's RV32IM core, its SRAM seen
// through a cached and an uncached view, the control block, and a memory map a system
// fills with its devices; the firmware load flow of seed 000 §3.2 (hold the core in
// reset, write the image, release, wait for the running flag), symbolized fault
// reports and the debug back door. Reload is the same flow on a live NIC and may be
// repeated any number of times. The SeaStar (systems/seastar) wires its DMA engines
// and host bridge onto it; the LANai will wire its own.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "niclab/core/cpu.hpp"
#include "niclab/fw/firmware_image.hpp"
#include "niclab/fw/symbolizer.hpp"
#include "niclab/nic/control_block.hpp"
#include "niclab/nic/embedded_nic_config.hpp"
#include "niclab/nic/memory_map.hpp"
#include "niclab/sim/zero_pages.hpp"

namespace niclab::nic {

// The firmware did not set its running flag within the boot timeout.
class BootTimeout : public core::FirmwareFault {
public:
    using core::FirmwareFault::FirmwareFault;
};

struct BootReport {
    Time started;          // when reset was released
    Time running;          // when the running flag was seen
    uint64_t instructions = 0;
};

class EmbeddedNic final : public core::Bus {
public:
    EmbeddedNic(sim::Kernel& kernel, const EmbeddedNicConfig& cfg);
    ~EmbeddedNic() override;
    EmbeddedNic(const EmbeddedNic&) = delete;
    EmbeddedNic& operator=(const EmbeddedNic&) = delete;

    // The system's devices, wired once after construction (before any firmware runs).
    // Register blocks are reset at every firmware load, in the order mapped, after the
    // control block.
    MemoryMap& memory_map() { return map_; }
    const MemoryMap& memory_map() const { return map_; }

    // Throws FirmwareImageError (bad image: nothing on the NIC changes), FirmwareFault
    // (the firmware faulted while booting) or BootTimeout.
    BootReport load_firmware(const std::filesystem::path& elf);
    BootReport reload_firmware(const std::filesystem::path& elf) { return load_firmware(elf); }
    const fw::FirmwareImage* image() const { return image_.get(); }
    // Symbols of the loaded image (null before the first load).
    const fw::Symbolizer* symbolizer() const { return symbolizer_.get(); }
    uint64_t loads() const { return loads_; }

    uint32_t node_id() const { return cfg_.node_id; }
    const EmbeddedNicConfig& config() const { return cfg_; }
    sim::Kernel& kernel() { return kernel_; }
    const sim::Kernel& kernel() const { return kernel_; }
    core::Cpu& cpu() { return *cpu_; }
    const core::Cpu& cpu() const { return *cpu_; }
    ControlBlock& control() { return *control_; }
    const std::string& console() const { return control_->console(); }
    // Boot block words (core_hw.h offsets) in this NIC's uncached view.
    uint32_t boot_flag_address() const { return cfg_.sram.uncached_base + NICLAB_BOOT_FLAG_OFFSET; }
    uint32_t heartbeat_address() const { return cfg_.sram.uncached_base + NICLAB_HEARTBEAT_OFFSET; }

    bool halted() const { return cpu_->state() == core::Cpu::State::Halted; }
    bool faulted() const { return cpu_->state() == core::Cpu::State::Faulted; }
    // The symbolized error for the fault that stopped this NIC, if any; its message
    // ends with the last trace records when the firmware was built with tracing.
    std::optional<core::FirmwareFault> fault() const;
    // "function+0xoff (file.c:line)" for a firmware address, or its hex.
    std::string where(uint32_t address) const;

    // Debug back door (the seed's RAS path): reads and writes SRAM through either
    // view without costing the firmware simulated time. Throws std::out_of_range
    // naming the address for anything outside SRAM.
    void read_sram(uint32_t address, std::span<uint8_t> out) const;
    void write_sram(uint32_t address, std::span<const uint8_t> in);
    uint32_t peek32(uint32_t address) const;
    void poke32(uint32_t address, uint32_t value);
    uint32_t sram_offset(uint32_t address, uint32_t length) const;  // throws std::out_of_range

    // core::Bus: everything below SRAM goes through the memory map.
    bool read(uint32_t addr, unsigned size, Time now, uint32_t& value, Time& latency) override;
    bool pure_read(uint32_t addr) const override { return map_.pure_read(addr, 4); }
    bool write(uint32_t addr, unsigned size, uint32_t value, Time now, Time& occupancy) override;

private:
    core::FirmwareFault make_fault(const core::FaultInfo& info) const;
    std::string last_trace_records(size_t n) const;
    std::string read_cstring(uint32_t address) const;
    void wait_for_running_flag(BootReport& report);

    sim::Kernel& kernel_;
    EmbeddedNicConfig cfg_;
    sim::ZeroPages sram_;  // resident only where the firmware or the host wrote
    MemoryMap map_;
    std::unique_ptr<core::Cpu> cpu_;
    std::unique_ptr<ControlBlock> control_;
    std::shared_ptr<const fw::FirmwareImage> image_;   // shared with every NIC running the file
    std::shared_ptr<const fw::Symbolizer> symbolizer_;
    uint64_t loads_ = 0;
};

}  // namespace niclab::nic
