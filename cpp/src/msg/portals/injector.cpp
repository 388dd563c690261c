#include "niclab/msg/portals/injector.hpp"

namespace niclab::portals {

Injector::Injector(host::HostCpu& cpu, Ni& ni, const std::string& name)
    : ni_(ni), process_(std::make_unique<host::Process>(cpu, name, [this](host::ProcessContext& ctx) { body(ctx); })) {}

Injector::~Injector() = default;  // process_ goes first (declared last): its fiber unwinds while the queue exists

void Injector::submit(Operation op) {
    queue_.push_back(std::move(op));
    work_.notify_all();
}

void Injector::body(host::ProcessContext& ctx) {
    for (;;) {
        ctx.wait_for(work_, [this] { return !queue_.empty(); });
        Operation op = std::move(queue_.front());
        queue_.pop_front();
        std::string error;
        try {
            op(ctx, ni_);
        } catch (const PortalsError& e) {
            error = e.what();  // recorded outside the catch block: no blocking call in here
        }
        if (!error.empty()) errors_.push_back(std::move(error));
        ++completed_;
    }
}

}  // namespace niclab::portals
