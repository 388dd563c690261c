#pragma once
// Native multicast as the multicast benchmark (exp/multicast.cpp; seed 004 §8.1.7) uses
// it, beside the point-to-point Transport (transport.hpp): a node joins named groups,
// sends one message to a group with one injection (the library and NIs replicate it),
// sends unicast copies to compare against, and answers with null unicast replies.
// A system whose host library has native multicast implements it and offers it through
// system::GroupModel (system/group_model.hpp), as it offers transports through its
// SystemModel; the benchmark knows no system.
//
// Every call comes from a host process on the node and costs what the library's calls
// cost; arrivals run the handlers given to set_handlers while the node waits.
#include <cstdint>
#include <functional>
#include <string>

#include "niclab/host/process.hpp"

namespace niclab::msg {

class GroupMessaging {
public:
    // What the benchmark's messages do when they arrive, each with the sending node:
    // a group or unicast data message (whole, however the library cut it up), a null
    // reply, the end of the run.
    struct Handlers {
        std::function<void(uint32_t src)> data, reply, stop;
    };

    virtual ~GroupMessaging() = default;
    virtual uint32_t node() const = 0;
    // The largest message send_group and send_to accept (bytes).
    virtual uint64_t max_message() const = 0;

    // Set-up, first: the handlers, then the groups (by name, the same id on every node;
    // joined by this node when `join`).
    virtual void set_handlers(Handlers handlers) = 0;
    virtual uint32_t group(host::ProcessContext& ctx, const std::string& name, bool join) = 0;

    // The message the next sends carry: `bytes` into the sender's memory (untimed).
    virtual void prepare_send(uint64_t bytes) = 0;
    // One native multicast of the prepared message to every member of `group`.
    virtual void send_group(host::ProcessContext& ctx, uint32_t group, uint32_t seq) = 0;
    // One unicast copy of the prepared message to `node`.
    virtual void send_to(host::ProcessContext& ctx, uint32_t node, uint32_t seq) = 0;
    virtual void reply(host::ProcessContext& ctx, uint32_t node) = 0;
    virtual void stop(host::ProcessContext& ctx, uint32_t node) = 0;
    // Polls (running the handlers) until `done()` holds.
    virtual void wait(host::ProcessContext& ctx, const std::function<bool()>& done) = 0;
};

}  // namespace niclab::msg
