#include "niclab/nic/embedded_nic.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "niclab/fw/shared_firmware.hpp"
#include "niclab/nic/trace_ring.hpp"
#include "niclab/sim/activity.hpp"
#include "niclab/trace/decoder.hpp"

namespace niclab::nic {

namespace {
std::string hex32(uint32_t v) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08x", v);
    return buf;
}
}  // namespace

EmbeddedNic::EmbeddedNic(sim::Kernel& kernel, const EmbeddedNicConfig& cfg)
    : kernel_(kernel), cfg_(cfg), sram_(cfg.sram.size, "the NIC's SRAM"), map_(cfg.mmio) {
    core::SramView view{sram_.data(), cfg_.sram.size, cfg_.sram.cached_base, cfg_.sram.uncached_base};
    cfg_.core.hart_id = cfg.node_id;
    cpu_ = std::make_unique<core::Cpu>(kernel_, cfg_.core, view, *this);
    cpu_->set_node(cfg_.node_id);
    // A profiled core names the functions it runs by the loaded image's symbols.
    cpu_->set_function_namer([this](sim::ActivityLog& log, uint32_t pc) -> uint32_t {
        if (!symbolizer_) return 0;
        const std::string fn = symbolizer_->lookup(pc).function;
        return log.intern(fn.empty() ? "(no symbol)" : fn);
    });
    control_ = std::make_unique<ControlBlock>(kernel_, *cpu_, cfg.node_id);
    control_->set_string_reader([this](uint32_t address) { return read_cstring(address); });
    map_.map(cfg_.control_base, NICLAB_CTRL_SIZE, *control_);  // first: reset first at every load
}

EmbeddedNic::~EmbeddedNic() { kernel_.remove_runnable(cpu_.get()); }

// ---------------------------------------------------------------- loading

BootReport EmbeddedNic::load_firmware(const std::filesystem::path& elf) {
    // Validate completely before touching the NIC: a bad image changes nothing.
    fw::SharedFirmware loaded = fw::load_shared(elf, cfg_.sram);

    cpu_->hold_reset();
    map_.reset_devices();
    sram_.clear();  // also clears the boot block and running flag
    for (const fw::Segment& s : loaded.image->segments())
        std::memcpy(sram_.data() + s.sram_offset, s.bytes.data(), s.bytes.size());
    image_ = std::move(loaded.image);
    symbolizer_ = std::move(loaded.symbolizer);
    ++loads_;

    BootReport report;
    report.started = kernel_.now();
    cpu_->release_reset(image_->entry());
    wait_for_running_flag(report);
    return report;
}

void EmbeddedNic::wait_for_running_flag(BootReport& report) {
    const Time deadline = report.started + cfg_.boot_timeout;
    // The core stops the run the moment it stores to the running flag.
    cpu_->set_store_watch(NICLAB_BOOT_FLAG_OFFSET, [this] {
        if (peek32(boot_flag_address()) == NICLAB_BOOT_RUNNING) kernel_.request_stop();
    });
    struct Unwatch {
        core::Cpu& cpu;
        ~Unwatch() { cpu.set_store_watch(UINT32_MAX, nullptr); }
    } unwatch{*cpu_};
    while (peek32(boot_flag_address()) != NICLAB_BOOT_RUNNING) {
        if (faulted()) throw make_fault(*cpu_->fault());
        if (halted())
            throw core::FirmwareFault(
                core::FaultInfo{core::FaultKind::BootTimeout, cpu_->pc(), 0, 0, kernel_.now()}, where(cpu_->pc()),
                "node " + std::to_string(cfg_.node_id) + ": firmware " + image_->path().string() +
                    " halted with exit code " + std::to_string(cpu_->exit_code()) +
                    " before setting its running flag at " + hex32(boot_flag_address()));
        if (kernel_.now() >= deadline) {
            core::FaultInfo info{core::FaultKind::BootTimeout, cpu_->pc(), 0, 0, kernel_.now()};
            cpu_->stop_with_fault(info);
            throw BootTimeout(info, where(info.pc),
                              "node " + std::to_string(cfg_.node_id) + ": firmware " + image_->path().string() +
                                  " did not set its running flag at " + hex32(boot_flag_address()) + " within " +
                                  std::to_string(cfg_.boot_timeout.as_us()) + " us; core at pc " +
                                  hex32(info.pc) + " in " + where(info.pc));
        }
        kernel_.run_until(deadline);
    }
    report.running = cpu_->local_time();
    report.instructions = cpu_->instret();
}

// ---------------------------------------------------------------- faults and symbols

std::string EmbeddedNic::read_cstring(uint32_t address) const {
    constexpr size_t kMax = 160;  // a reason, not a document
    std::string s;
    try {
        for (uint8_t c = 0; s.size() < kMax; s.push_back(char(c))) {
            read_sram(address + uint32_t(s.size()), {&c, 1});
            if (c == 0) return s;
        }
        return s + "...";
    } catch (const std::out_of_range&) {
        return s.empty() ? "(reason at " + hex32(address) + " is outside SRAM)" : s;
    }
}

std::string EmbeddedNic::where(uint32_t address) const {
    if (!symbolizer_) return hex32(address);
    return symbolizer_->lookup(address).to_string(address);
}

core::FirmwareFault EmbeddedNic::make_fault(const core::FaultInfo& info) const {
    std::string w = where(info.pc);
    char when[64];
    std::snprintf(when, sizeof when, " at %.3f us", info.time.as_us());
    return core::FirmwareFault(info, w,
                               "node " + std::to_string(cfg_.node_id) + ": " + info.summary() + " in " + w + when +
                                   last_trace_records(8));
}

std::string EmbeddedNic::last_trace_records(size_t n) const {
    if (!image_ || !symbolizer_) return {};
    uint32_t descriptor;
    if (!image_->find_symbol("niclab_trace", descriptor)) return {};  // built without tracing
    try {
        auto records = trace::decode(read_trace(*this), [this](uint32_t pc) { return symbolizer_->lookup(pc); });
        if (records.empty()) return {};
        trace::FormatOptions last;
        last.last = n;
        return "\nlast trace records:\n" + trace::format_text(records, last);
    } catch (const trace::TraceError& e) {
        return std::string("\n(trace ring unreadable: ") + e.what() + ")";
    }
}

std::optional<core::FirmwareFault> EmbeddedNic::fault() const {
    if (!cpu_->fault()) return std::nullopt;
    return make_fault(*cpu_->fault());
}

// ---------------------------------------------------------------- debug back door

uint32_t EmbeddedNic::sram_offset(uint32_t address, uint32_t length) const {
    for (uint32_t base : {cfg_.sram.cached_base, cfg_.sram.uncached_base}) {
        uint32_t off = address - base;
        if (off < cfg_.sram.size && uint64_t(off) + length <= cfg_.sram.size) return off;
    }
    throw std::out_of_range("address " + hex32(address) + " (+" + std::to_string(length) +
                            " bytes) is not in NIC SRAM");
}

void EmbeddedNic::read_sram(uint32_t address, std::span<uint8_t> out) const {
    const uint32_t off = sram_offset(address, uint32_t(out.size()));
    cpu_->check_outside_access(off, uint32_t(out.size()), false);
    std::memcpy(out.data(), sram_.data() + off, out.size());
}

void EmbeddedNic::write_sram(uint32_t address, std::span<const uint8_t> in) {
    uint32_t off = sram_offset(address, uint32_t(in.size()));
    cpu_->check_outside_access(off, uint32_t(in.size()), true);
    std::memcpy(sram_.data() + off, in.data(), in.size());
    cpu_->invalidate_code(off, uint32_t(in.size()));
}

uint32_t EmbeddedNic::peek32(uint32_t address) const {
    uint32_t v;
    read_sram(address, {reinterpret_cast<uint8_t*>(&v), 4});
    return v;
}

void EmbeddedNic::poke32(uint32_t address, uint32_t value) {
    write_sram(address, {reinterpret_cast<const uint8_t*>(&value), 4});
}

// ---------------------------------------------------------------- core::Bus

bool EmbeddedNic::read(uint32_t addr, unsigned size, Time, uint32_t& value, Time& latency) {
    return map_.read(addr, size, value, latency);
}

bool EmbeddedNic::write(uint32_t addr, unsigned size, uint32_t value, Time, Time& occupancy) {
    return map_.write(addr, size, value, occupancy);
}

}  // namespace niclab::nic
