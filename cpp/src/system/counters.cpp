// System::counters: one node's counters from every part that keeps some (counters.hpp).
#include "niclab/system/system.hpp"

namespace niclab::system {

namespace {
uint64_t ns(Time t) { return uint64_t(t.ps() / 1000); }
}  // namespace

Counters System::counters(size_t node) {
    Counters out;
    counters(node, out);
    return out;
}

void System::counters(size_t node, Counters& out) {
    Node& n = nodes_.at(node);
    if (nic::EmbeddedNic* nic = n.hardware->embedded_nic()) {
        const core::Cpu& cpu = nic->cpu();
        out.add("core.instructions", cpu.instret());
        out.add("core.cycles", cpu.cycles());
        out.add("core.stall_cycles", cpu.stall_cycles());
        out.add("core.icache_accesses", cpu.icache().accesses);
        out.add("core.icache_misses", cpu.icache().misses);
        out.add("core.dcache_accesses", cpu.dcache().accesses);
        out.add("core.dcache_misses", cpu.dcache().misses);
        out.add("core.dcache_writebacks", cpu.dcache().writebacks);
        const core::Cpu::Counts& c = cpu.counts();
        out.add("core.uncached_loads", c.uncached_loads);
        out.add("core.uncached_stores", c.uncached_stores);
        out.add("core.device_loads", c.device_loads);
        out.add("core.device_stores", c.device_stores);
        out.add("core.interrupts_taken", c.interrupts);
        out.add("core.exceptions_taken", c.exceptions);
        out.add("nic.host_window_reads", nic->memory_map().window_reads());
        out.add("nic.host_window_writes", nic->memory_map().window_writes());
        out.add("nic.host_interrupts_raised", nic->control().host_interrupts());
    }
    n.hardware->counters(out);

    const host::CpuTimes t = n.cpu->times();
    out.add("host.interrupts_taken", t.interrupts);
    out.add("host.user_ns", ns(t.user));
    out.add("host.system_ns", ns(t.system));
    out.add("host.interrupt_ns", ns(t.interrupt));

    if (network_) {
        // Summed over the node's ports: its injection (tx) and ejection (rx) cables.
        net::LinkStats tx, rx;
        for (uint32_t port = 0; port < terminals_.ports; ++port) {
            const uint32_t terminal = terminals_.terminal(uint32_t(node), port);
            for (auto [link, sum] : {std::pair{network_->injection_link(terminal), &tx},
                                     std::pair{network_->ejection_link(terminal), &rx}}) {
                const net::LinkStats& s = network_->link(link).stats();
                sum->packets += s.packets;
                sum->payload_bytes += s.payload_bytes;
                sum->retries += s.retries;
                sum->corrupted += s.corrupted;
            }
        }
        out.add("net.tx_packets", tx.packets);
        out.add("net.tx_payload_bytes", tx.payload_bytes);
        out.add("net.tx_link_retries", tx.retries);
        out.add("net.rx_packets", rx.packets);
        out.add("net.rx_payload_bytes", rx.payload_bytes);
        out.add("net.rx_link_retries", rx.retries);
        out.add("net.rx_corrupted", rx.corrupted);
    }
}

}  // namespace niclab::system
