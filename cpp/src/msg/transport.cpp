#include "niclab/msg/transport.hpp"

namespace niclab::msg {

void Transport::no_get() const {
    throw TransportError("node " + std::to_string(node()) + ": this transport has no one-sided get");
}

void Transport::get(host::ProcessContext&, uint64_t) { no_get(); }
void Transport::prepare_get(host::ProcessContext&, uint64_t) { no_get(); }
void Transport::start_get(host::ProcessContext&) { no_get(); }
void Transport::wait_replies(host::ProcessContext&, uint64_t) { no_get(); }

}  // namespace niclab::msg
