#include "niclab/host/fiber_stack_pool.hpp"

#include <algorithm>

namespace niclab::host {

FiberStackPool::FiberStackPool(std::size_t stack_bytes, std::size_t max_idle)
    : stack_bytes_(stack_bytes), max_idle_(max_idle), mapper_(stack_bytes) {
    // Reserved up front so giving a stack back never allocates (deallocate is noexcept).
    idle_.reserve(max_idle_);
}

FiberStackPool::~FiberStackPool() {
    for (auto& sc : idle_) mapper_.deallocate(sc);
}

boost::context::stack_context FiberStackPool::allocate() {
    boost::context::stack_context sc;
    if (!idle_.empty()) {
        sc = idle_.back();
        idle_.pop_back();
    } else {
        sc = mapper_.allocate();
    }
    peak_in_use_ = std::max(peak_in_use_, ++in_use_);
    return sc;
}

void FiberStackPool::deallocate(boost::context::stack_context& sc) noexcept {
    --in_use_;
    if (idle_.size() < max_idle_) idle_.push_back(sc);
    else mapper_.deallocate(sc);
}

}  // namespace niclab::host
