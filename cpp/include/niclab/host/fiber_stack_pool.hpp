#pragma once
// One host CPU's stacks for its process fibers: taken from the stack arena that all
// nodes share (stack_arena.hpp) and given back when a process finishes, so a run that
// creates and finishes many processes in sequence reuses a handful of stacks. Counts
// what this CPU holds.
#include <cstddef>

#include <boost/context/stack_context.hpp>

#include "niclab/host/stack_arena.hpp"

namespace niclab::host {

class FiberStackPool {
public:
    explicit FiberStackPool(std::size_t stack_bytes) : FiberStackPool(StackArena::shared(stack_bytes)) {}
    explicit FiberStackPool(StackArena& arena) : arena_(arena) {}
    FiberStackPool(const FiberStackPool&) = delete;
    FiberStackPool& operator=(const FiberStackPool&) = delete;

    // Throws HostResourceError when the machine cannot give a stack, saying why.
    boost::context::stack_context allocate() {
        boost::context::stack_context sc = arena_.take();
        if (++in_use_ > peak_in_use_) peak_in_use_ = in_use_;
        return sc;
    }
    void deallocate(boost::context::stack_context& sc) noexcept {
        --in_use_;
        arena_.give(sc);
    }

    const StackArena& arena() const { return arena_; }
    std::size_t in_use() const { return in_use_; }
    // Most stacks ever in use at once.
    std::size_t peak_in_use() const { return peak_in_use_; }

private:
    StackArena& arena_;
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
