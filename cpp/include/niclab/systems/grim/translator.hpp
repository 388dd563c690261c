#pragma once
// The Myrinet driver's address translation for the NI (§4.5.2, L1171-1175; Table 5.3):
// on a miss in its translation cache the NI DMAs a request (grim_fw.h's struct
// grim_xlate_request) to a known place in kernel memory and raises its interrupt line;
// this interrupt service routine "examines the request, performs the translation, and
// writes the resulting information back to the NI": the physical runs of the range into
// the dynamic entry the NI named, then its answer. Memory the process has not
// registered gets GRIM_XLATE_UNREGISTERED and no entry.
//
// Costs: the interrupt itself (PCI interrupt latency, the CPU's entry and exit:
// host::HostCpu), the ISR's fixed work (read the request, find the process, acknowledge
// the card), a page-table walk per page, and the posted PIO stores of the entry (store
// issue on the CPU; the bytes reach NI SRAM after the path latency and the bus time of
// the write transactions). The stores are not arbitrated against DMA on the bus: the
// NI is waiting for them with its host DMA idle.
#include <cstdint>
#include <deque>
#include <vector>

#include "niclab/fw/grim_fw.h"
#include "niclab/host/host_memory.hpp"
#include "niclab/host/interrupt.hpp"
#include "niclab/nic/control_block.hpp"
#include "niclab/sim/time.hpp"
#include "niclab/systems/grim/lanai.hpp"
#include "niclab/systems/grim/vm.hpp"

namespace niclab::grim {

struct TranslatorParams {
    Time isr_work;        // the ISR's own work besides the page walk
    Time translate_page;  // the page-table walk of one page
};

class Translator {
public:
    // `shared`: the firmware's grim_shared (uncached view); `request_addr`: the kernel
    // memory the NI DMAs its requests to.
    Translator(LanaiNic& nic, host::HostMemory& memory, const AddressSpace& space, uint32_t shared, uint64_t request_addr,
               const TranslatorParams& params);
    ~Translator();
    Translator(const Translator&) = delete;
    Translator& operator=(const Translator&) = delete;

    // Stops taking the card's interrupts (its firmware was reloaded: a new driver
    // instance serves the new one). Pending work still completes.
    void detach();
    uint64_t interrupts() const { return interrupts_; }
    uint64_t refused() const { return refused_; }  // requests for unregistered memory

private:
    // What the ISR writes into NI memory once its stores have crossed the bus.
    struct Answer {
        grim_xlate_entry entry;
        uint32_t entry_bytes, slot, seq, status;
    };
    void isr(host::InterruptContext& ic);
    void answer();
    void store(uint32_t field, std::span<const uint8_t> bytes);  // into grim_shared, by PIO

    LanaiNic& nic_;
    host::HostMemory& memory_;
    const AddressSpace& space_;
    uint32_t shared_;
    uint64_t request_addr_;
    TranslatorParams params_;
    nic::ControlBlock::HandlerId handler_ = 0;
    std::vector<AddressSpace::Run> runs_;
    std::deque<Answer> answers_;  // in ISR order, which is landing order
    uint64_t interrupts_ = 0, refused_ = 0;
};

}  // namespace niclab::grim
