#include "niclab/host/kernel_thread.hpp"

namespace niclab::host {

KernelThread::KernelThread(HostCpu& cpu, std::string name, Work work)
    : work_(std::move(work)),
      process_(cpu, std::move(name), [this](ProcessContext& ctx) { loop(ctx); }, Priority::kernel) {}

void KernelThread::wake() {
    ++pending_;
    ++wakeups_;
    woken_.notify_all();
}

void KernelThread::loop(ProcessContext& ctx) {
    for (;;) {
        ctx.wait_for(woken_, [this] { return pending_ > 0; });
        pending_ = 0;
        ++rounds_;
        work_(ctx);
    }
}

}  // namespace niclab::host
