#pragma once
// The message injector for every system: one message through a host library's
// transport adapter (msg::Transport, the interface every experiment runs through —
// JAM over PIO, VI or RDMA on the StarT-X, CSP channels on the DSNIC, virtual links on
// the T9000, Portals on the SeaStar). A host process on the sender sends `bytes` with a
// tag, one on the receiver takes it; the transport writes the seeded payload pattern
// and checks every byte on arrival (msg/payload_pattern.hpp), so a message that
// arrives changed is a TransportError, not a quiet pass. Runs on the system worker.
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "model/portals_injection.hpp"
#include "niclab/msg/transport.hpp"
#include "niclab/system/system.hpp"

namespace niclab::gui {

struct TransportMessage {
    std::string transport;  // one of the system's (SystemModel::transports()); "" = its default
    size_t sender = 0, receiver = 1;
    uint64_t bytes = 64;
    uint64_t tag = 0;
};

class TransportInjection {
public:
    static constexpr Time kPatience = Time::ms(20);
    static constexpr uint64_t kSeed = 1;  // of the payload pattern
    // The buffers each end opens: the largest message the injector sends (a library
    // may take far more — the SeaStar's 512 MiB — which the injector need not reserve).
    static constexpr uint64_t kMaxBytes = 16u << 20;

    explicit TransportInjection(system::System& sys);
    ~TransportInjection();

    // Sends one message and runs the system until it has arrived (or kPatience passes):
    // the events are the send's start and return, the receive's completion. Throws
    // InputError for nodes or a size out of range or an unknown transport, and the
    // transport's own errors (TransportError, the library's typed ones).
    InjectionOutcome inject(const TransportMessage& m);

private:
    struct Pair {
        std::unique_ptr<msg::Transport> send, recv;
        bool open = false;
    };
    Pair& pair(const std::string& transport, size_t sender, size_t receiver);

    system::System& sys_;
    // Opened once per direction and transport: a library sets up its buffers once.
    std::map<std::tuple<std::string, size_t, size_t>, Pair> pairs_;
};

}  // namespace niclab::gui
