#pragma once
// A GDB remote-protocol stub for one embedded-core NIC (gdb-multiarch, `target remote
// :PORT`). It listens on 127.0.0.1 and serves one debugger at a time; the next may
// attach after it detaches.
//
// It runs on the simulation thread. While the core runs, the core asks it every few
// bursts whether to stop (a debugger just connected, or sent Ctrl-C); when the core
// stops (breakpoint, step, watchpoint, fault, that request) the core calls stopped(),
// which serves the debugger's packets, blocking, until it continues, steps or detaches.
// So while a core is halted nothing in the cluster runs and global simulated time
// stands still. Memory goes through the NIC's debug back door (no simulated time);
// breakpoints and watchpoints are the simulator's (core/debug_hooks.hpp), never an
// ebreak written into SRAM.
#include <cstdint>
#include <memory>
#include <string>

#include "niclab/core/debug_hooks.hpp"
#include "niclab/debug/rsp_packet.hpp"
#include "niclab/debug/rsp_socket.hpp"
#include "niclab/nic/embedded_nic.hpp"

namespace niclab::debug {

class GdbServer final : public core::DebugListener {
public:
    // Listens on 127.0.0.1:port (0: a free port; port() says which). Throws
    // GdbServerError naming the port when it cannot (in use, no permission).
    GdbServer(nic::EmbeddedNic& nic, uint16_t port = 0);
    ~GdbServer() override;  // detaches from the core; the firmware runs on
    GdbServer(const GdbServer&) = delete;
    GdbServer& operator=(const GdbServer&) = delete;

    const nic::EmbeddedNic& nic() const { return nic_; }
    uint16_t port() const { return listener_ ? listener_->port() : 0; }
    bool connected() const { return conn_ && conn_->open(); }
    // Debuggers that have detached (or gone away) so far.
    uint64_t sessions_ended() const { return sessions_ended_; }

    // From the simulation thread while no run is in progress: wait up to timeout_ms of
    // wall time (-1: forever) for a debugger, then serve it with the core stopped where
    // it is until the debugger resumes it. False when nobody attached in time.
    bool wait_for_attach(int timeout_ms);
    // From the simulation thread between runs: accept a waiting debugger, or notice a
    // Ctrl-C, and serve it (the core may be asleep in wfi, where it asks nobody).
    void poll_idle();
    // Stop listening and detach (a connected debugger sees the connection close).
    void close();

    // core::DebugListener
    core::Resume stopped(const core::DebugStop& why) override;
    bool poll() override;

    // The reply to one packet (exposed for tests); `resume` says whether it resumes the core.
    enum class Action { Stay, Continue, Step, Detach };
    std::string handle_packet(const std::string& packet, Action& action);

private:
    core::Resume serve();  // packets until the debugger resumes the core
    bool accept_now(int timeout_ms);
    void end_session();
    void send_packet(std::string_view payload);
    void pump(int timeout_ms);  // socket -> reader
    std::string stop_reply(const core::DebugStop& why) const;
    std::string read_registers() const;
    bool write_registers(std::string_view hex);
    bool read_register(uint32_t regnum, uint32_t& value) const;
    bool write_register(uint32_t regnum, uint32_t value);
    std::string read_memory(std::string_view args) const;
    std::string write_memory(std::string_view args, bool binary);
    std::string point(std::string_view args, bool insert);
    std::string monitor(std::string_view hex_command);
    std::string xfer_features(std::string_view args) const;

    nic::EmbeddedNic& nic_;
    core::Cpu& cpu_;
    std::unique_ptr<RspListener> listener_;
    std::unique_ptr<RspConnection> conn_;
    PacketReader reader_;
    bool ack_mode_ = true;
    bool running_ = false;    // the debugger resumed the core and waits for a stop reply
    bool interrupt_ = false;  // a Ctrl-C arrived
    core::DebugStop last_stop_;
    std::string last_sent_;
    uint64_t sessions_ended_ = 0;
};

}  // namespace niclab::debug
