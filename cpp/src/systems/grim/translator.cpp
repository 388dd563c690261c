// The driver's translation ISR (translator.hpp).
#include "niclab/systems/grim/translator.hpp"

#include <cstddef>

#include "niclab/fw/grim_fw.h"
#include "niclab/fw/lanai.h"

namespace niclab::grim {

namespace {
constexpr uint32_t kEntryBase = offsetof(grim_shared, xlate) + offsetof(grim_xlate, entry);
}

Translator::Translator(LanaiNic& nic, host::HostMemory& memory, const AddressSpace& space, uint32_t shared, uint64_t request_addr,
                       const TranslatorParams& params)
    : nic_(nic), memory_(memory), space_(space), shared_(shared), request_addr_(request_addr), params_(params) {
    // The card's interrupt line through the PCI bus to the host CPU.
    handler_ = nic_.nic().control().add_host_interrupt_handler([this] {
        nic_.bus().raise_interrupt([this](host::InterruptContext& ic) { isr(ic); });
    });
}

Translator::~Translator() { detach(); }

void Translator::detach() {
    nic_.nic().control().remove_host_interrupt_handler(handler_);
    handler_ = 0;
}

void Translator::store(uint32_t field, std::span<const uint8_t> bytes) {
    nic_.pci_write(shared_ - LANAI_SRAM_UNCACHED_BASE + field, bytes, nic_.bus().kernel().now());
}

void Translator::isr(host::InterruptContext& ic) {
    ++interrupts_;
    grim_xlate_request req{};
    memory_.read(request_addr_, {reinterpret_cast<uint8_t*>(&req), sizeof req});
    ic.charge(params_.isr_work);
    // Translate page by page; stop at the first page that is not registered.
    const bool slot_ok = req.slot >= GRIM_XLATE_STATIC && req.slot < GRIM_XLATE_STATIC + GRIM_XLATE_DYNAMIC;
    const bool ok = slot_ok && req.bytes > 0 && space_.runs(req.va, req.bytes, runs_) && runs_.size() <= GRIM_XLATE_RUNS;
    ic.charge(params_.translate_page * (ok ? space_.pages(req.va, req.bytes) : 1));
    if (!ok) ++refused_;

    grim_xlate_entry entry{};
    if (ok) {
        entry.valid = 1;
        entry.va = req.va;
        entry.bytes = req.bytes;
        entry.runs = uint32_t(runs_.size());
        for (size_t i = 0; i < runs_.size(); ++i) entry.run[i] = {runs_[i].pa, runs_[i].bytes};
    }
    const uint32_t entry_bytes = ok ? uint32_t(offsetof(grim_xlate_entry, run) + runs_.size() * sizeof(grim_xlate_run)) : 0;
    // The NI update: the entry in 64-byte block stores, then the answer (status and
    // sequence, one store). The CPU pays each store's issue; the bytes land after the
    // path to the bridge and the write transactions' bus time.
    const bus::PciParams& pci = nic_.bus().params();
    const uint32_t blocks = (entry_bytes + 63) / 64;
    ic.charge(pci.store_issue_cost * (blocks + 1));
    Time landing = pci.host_path_latency + pci.write_occupancy(8);
    for (uint32_t b = 0; b < blocks; ++b) landing = landing + pci.write_occupancy(std::min<uint32_t>(64, entry_bytes - 64 * b));
    answers_.push_back({entry, entry_bytes, req.slot, req.seq, ok ? GRIM_XLATE_OK : GRIM_XLATE_UNREGISTERED});
    ic.continue_with([this, landing](host::InterruptContext&) { nic_.bus().kernel().schedule_in(landing, [this] { answer(); }); });
}

void Translator::answer() {
    const Answer a = answers_.front();
    answers_.pop_front();
    if (a.entry_bytes) {
        // Everything but `valid`, then `valid`: the NI ignores the entry until then.
        const auto* e = reinterpret_cast<const uint8_t*>(&a.entry);
        const uint32_t at = kEntryBase + a.slot * uint32_t(sizeof(grim_xlate_entry));
        store(at + 4, {e + 4, a.entry_bytes - 4});
        store(at, {e, 4});
    }
    store(offsetof(grim_shared, xlate) + offsetof(grim_xlate, reply_status), {reinterpret_cast<const uint8_t*>(&a.status), 4});
    store(offsetof(grim_shared, xlate) + offsetof(grim_xlate, reply_seq), {reinterpret_cast<const uint8_t*>(&a.seq), 4});
}

}  // namespace niclab::grim
