#pragma once
// Stacks for process fibers. Each stack is a fixed-size mapping with a guard page
// (an overflow faults at once instead of corrupting a neighbour), mapped here rather than
// by Boost's protected_fixedsize_stack, which leaves the guard out unnoticed when the
// kernel refuses it (its mprotect result is only asserted): near the kernel's limit of
// mappings (vm.max_map_count) stacks ran on without guards, merged into one mapping, and
// the first mapping that could merge with nothing failed as a bare std::bad_alloc. Finished processes
// give their stack back and the next process reuses it, so a run that creates and
// finishes many processes in sequence maps only a handful of stacks.
#include <cstddef>
#include <vector>

#include <boost/context/stack_context.hpp>

#include "niclab/sim/error.hpp"

namespace niclab::host {

// The machine running the simulation could not give what the model asked of it (a
// process stack), with why: out of memory, or out of the kernel's memory mappings.
class HostResourceError : public Error {
public:
    using Error::Error;
};

class FiberStackPool {
public:
    // Up to `max_idle` returned stacks are kept for reuse; beyond that they are unmapped.
    explicit FiberStackPool(std::size_t stack_bytes, std::size_t max_idle = 16);
    ~FiberStackPool();
    FiberStackPool(const FiberStackPool&) = delete;
    FiberStackPool& operator=(const FiberStackPool&) = delete;

    // Throws HostResourceError when the stack cannot be mapped: each takes two of the
    // kernel's memory mappings (the stack and its guard page), and a process may hold
    // vm.max_map_count of them (65,530 by default: some 32,000 host processes).
    boost::context::stack_context allocate();
    void deallocate(boost::context::stack_context& sc) noexcept;

    std::size_t stack_bytes() const { return stack_bytes_; }
    std::size_t in_use() const { return in_use_; }
    std::size_t idle() const { return idle_.size(); }
    // Stacks currently mapped (in use + idle): the pool's footprint is this times stack_bytes().
    std::size_t mapped() const { return in_use_ + idle_.size(); }
    // Most stacks ever in use at once.
    std::size_t peak_in_use() const { return peak_in_use_; }

private:
    std::size_t stack_bytes_;
    std::size_t max_idle_;
    boost::context::stack_context map_stack() const;  // throws HostResourceError
    void unmap_stack(boost::context::stack_context& sc) const noexcept;
    std::vector<boost::context::stack_context> idle_;
    std::size_t in_use_ = 0;
    std::size_t peak_in_use_ = 0;
};

// The StackAllocator that Boost.Context's fiber constructor takes (copied into the
// fiber's control record, so it only points at the pool).
class PooledStack {
public:
    explicit PooledStack(FiberStackPool& pool) : pool_(&pool) {}
    boost::context::stack_context allocate() { return pool_->allocate(); }
    void deallocate(boost::context::stack_context& sc) noexcept { pool_->deallocate(sc); }

private:
    FiberStackPool* pool_;
};

}  // namespace niclab::host
