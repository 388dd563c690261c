#pragma once
// The Myrinet LANai NIC (seed 004 §2.2, App. A): an embedded-core NIC (nic::EmbeddedNic,
// the LANai's core modelled as niclab's RV32IM core at the LANai's clock, its SRAM at
// lanai.h's addresses) with the three transfer engines the thesis names (L626): the
// host DMA engine over the node's PCI bus, the network send DMA and the network
// receive DMA; and the card's PCI memory window through which the host writes SRAM
// with programmed I/O. The register map is firmware/sdk/include/niclab/fw/lanai.h.
#include <cstdint>
#include <functional>
#include <vector>

#include "niclab/bus/pci.hpp"
#include "niclab/net/network.hpp"
#include "niclab/nic/embedded_nic.hpp"

namespace niclab::grim {

struct LanaiConfig {
    nic::EmbeddedNicConfig embedded;  // core clock and timing; the SRAM size
    // App. A L2249-2250: the minimum time of one PCI DMA and one SAN DMA. Taken as each
    // engine's fixed start-up cost; the bytes then move at the bus's or the link's rate.
    Time pci_dma_setup;
    Time san_dma_setup;
    uint64_t pci_base = 0xE000'0000;  // where the card's memory window sits in PCI space
    uint32_t nodes = 1;
};

class LanaiNic;

// SRAM <-> host memory over PCI, one transfer at a time.
class HostDma final : public nic::RegisterBlock {
public:
    explicit HostDma(LanaiNic& nic) : nic_(nic) {}
    bool read(uint32_t offset, uint32_t& value) override;
    bool pure_read(uint32_t) const override { return true; }  // state only
    bool write(uint32_t offset, uint32_t value) override;
    void reset() override;
    uint64_t transfers() const { return transfers_; }
    uint64_t bytes() const { return bytes_; }

private:
    void start(uint32_t ctrl);
    void finish(bool to_host, uint64_t generation);
    LanaiNic& nic_;
    uint32_t host_addr_ = 0, sram_offset_ = 0, length_ = 0, status_ = 0, done_ = 0;
    uint64_t generation_ = 0;  // a reset abandons the transfer under way
    std::vector<uint8_t> buffer_;
    uint64_t transfers_ = 0, bytes_ = 0;
};

// SRAM -> network: one message, cut into packets each led by the source route.
class NetSend final : public nic::RegisterBlock {
public:
    explicit NetSend(LanaiNic& nic) : nic_(nic) {}
    bool read(uint32_t offset, uint32_t& value) override;
    bool pure_read(uint32_t) const override { return true; }  // state only
    bool write(uint32_t offset, uint32_t value) override;
    void reset() override;
    void injection_ready() { pump(); }
    uint64_t messages() const { return messages_; }
    uint64_t packets() const { return packets_; }

private:
    void pump();
    LanaiNic& nic_;
    uint32_t sram_offset_ = 0, length_ = 0, dest_ = 0, route_ = 0, route_length_ = 0, status_ = 0, done_ = 0;
    uint32_t avail_ = 0;          // message bytes that may go (all of them unless GO_PARTIAL)
    bool partial_ = false;        // GO_PARTIAL: bytes are read from SRAM as they go
    bool pumping_ = false;
    uint32_t sent_ = 0;          // message bytes injected so far
    uint16_t sequence_ = 0;
    uint32_t message_id_ = 0;
    uint64_t generation_ = 0;
    std::vector<uint8_t> message_;
    uint64_t messages_ = 0, packets_ = 0;
};

// Network -> receive ring in SRAM (lanai.h), reassembling each source's packets.
class NetRecv final : public nic::RegisterBlock {
public:
    explicit NetRecv(LanaiNic& nic) : nic_(nic) {}
    bool read(uint32_t offset, uint32_t& value) override;
    bool pure_read(uint32_t) const override { return true; }  // state only
    bool write(uint32_t offset, uint32_t value) override;
    void reset() override;
    bool deliver(const net::PacketView& p);
    uint64_t messages() const { return messages_; }
    uint64_t refusals() const { return refusals_; }
    uint64_t crc_errors() const { return crc_errors_; }  // packets whose CRC-8 failed
    uint32_t head() const { return head_; }
    uint32_t tail() const { return tail_; }
    uint32_t ring() const { return ring_; }
    uint32_t ring_bytes() const { return ring_bytes_; }

private:
    struct Assembly {
        bool active = false;
        uint32_t desc = 0;      // SRAM offset of the descriptor
        uint32_t received = 0, total = 0;
        bool bad = false;       // a packet of it failed its CRC
    };
    LanaiNic& nic_;
    uint32_t ring_ = 0, ring_bytes_ = 0, head_ = 0, tail_ = 0;
    bool enabled_ = false, refused_ = false, progress_irq_ = false;
    std::vector<Assembly> assembly_;  // per source node
    uint64_t messages_ = 0, refusals_ = 0, completed_ = 0, crc_errors_ = 0;
    uint32_t crc_errors_reg_ = 0;  // LANAI_RECV_CRC_ERRORS: since the engine's reset
};

class LanaiNic final : public bus::PciTarget, public net::NetworkEndpoint {
public:
    LanaiNic(sim::Kernel& kernel, const LanaiConfig& cfg, bus::PciBus& bus, net::Network* network);
    ~LanaiNic() override;
    LanaiNic(const LanaiNic&) = delete;
    LanaiNic& operator=(const LanaiNic&) = delete;

    nic::EmbeddedNic& nic() { return nic_; }
    const nic::EmbeddedNic& nic() const { return nic_; }
    const LanaiConfig& config() const { return cfg_; }
    bus::PciBus& bus() { return bus_; }
    net::Network* network() { return network_; }
    uint32_t node() const { return cfg_.embedded.node_id; }
    uint32_t sram_bytes() const { return cfg_.embedded.sram.size; }
    // The host address of SRAM offset `o` in PCI space (the host's PIO target).
    uint64_t pci_address(uint32_t o) const { return cfg_.pci_base + o; }

    HostDma& host_dma() { return host_dma_; }
    const HostDma& host_dma() const { return host_dma_; }
    const NetSend& net_send() const { return send_; }
    const NetRecv& net_recv() const { return recv_; }
    // Called when a DMA into host memory has landed (the host library waits on it).
    void set_host_write_hook(std::function<void()> hook) { host_write_hook_ = std::move(hook); }

    // bus::PciTarget: host PIO into SRAM. A write wakes the core: the firmware polls
    // its queues, and the model lets a host write end its wfi (lanai.h).
    void pci_write(uint64_t offset, std::span<const uint8_t> data, Time at) override;
    void pci_read(uint64_t offset, std::span<uint8_t> out, Time at) override;
    // net::NetworkEndpoint
    bool deliver(const net::PacketView& packet) override { return recv_.deliver(packet); }
    void injection_ready() override { send_.injection_ready(); }

private:
    friend class HostDma;
    friend class NetSend;
    friend class NetRecv;
    void raise(uint32_t sources) { nic_.control().raise_external(sources); }
    // SRAM bounds check for the engines: false if [offset, offset + bytes) leaves SRAM.
    bool in_sram(uint32_t offset, uint32_t bytes) const { return uint64_t(offset) + bytes <= cfg_.embedded.sram.size; }

    LanaiConfig cfg_;
    bus::PciBus& bus_;
    net::Network* network_;
    nic::EmbeddedNic nic_;
    HostDma host_dma_;
    NetSend send_;
    NetRecv recv_;
    std::function<void()> host_write_hook_;
};

}  // namespace niclab::grim
