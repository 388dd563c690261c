#pragma once
// One arena of fiber stacks for every host process of a given stack size, across all
// nodes and systems of the simulation process.
//
// Why one arena: a stack needs a guard page below it (an overflow faults at once instead
// of corrupting a neighbour), and a guard made by mprotect splits its mapping, so each
// stack cost two of the kernel's memory mappings. Red Storm's 10,368 host processes held
// 20,736 of them, and the kernel allows a process 65,530 by default (vm.max_map_count):
// some 32,000 host processes were the ceiling. Linux 6.13 and later install guard pages
// inside one mapping (madvise MADV_GUARD_INSTALL, "guard regions"), so the arena reserves
// its stacks in a few large chunks and guards each slot that way: a handful of mappings
// for any number of stacks. On an older kernel it falls back to mprotect guards.
//
// Chunks are reserved address space (MAP_NORESERVE); a slot's pages become memory only
// when its fiber touches them. A returned slot is kept warm for the next process up to a
// small number; beyond that its pages go back to the kernel (MADV_DONTNEED) and the slot
// stays reserved for reuse.
#include <cstddef>
#include <mutex>
#include <vector>

#include <boost/context/stack_context.hpp>

#include "niclab/sim/host_resources.hpp"

namespace niclab::host {

using sim::HostResourceError;  // a stack the machine cannot give

class StackArena {
public:
    enum class Guards {
        best,             // guard regions where the kernel has them, else page protection
        page_protection,  // mprotect: two mappings a stack (the fallback; tests choose it)
    };

    // Slots of `stack_bytes` (rounded up to pages) plus a guard page each; up to
    // `keep_warm` returned slots keep their pages.
    explicit StackArena(std::size_t stack_bytes, Guards guards = Guards::best, std::size_t keep_warm = 64);
    ~StackArena();
    StackArena(const StackArena&) = delete;
    StackArena& operator=(const StackArena&) = delete;

    // The process-wide arena for stacks of this size. It is never destroyed: host
    // processes that outlive static destruction (a Python interpreter's shutdown) may
    // still give their stacks back.
    static StackArena& shared(std::size_t stack_bytes);

    // Thread-safe (simulations run on several threads), also across a fork from any
    // thread (a forked sweep worker's arenas are not left locked). take() throws
    // HostResourceError when the machine cannot reserve a chunk or guard a slot, saying
    // which ran out.
    boost::context::stack_context take();
    void give(boost::context::stack_context& sc) noexcept;

    std::size_t stack_bytes() const { return stack_bytes_; }
    bool guard_regions() const;  // guards are guard regions, not mprotect
    std::size_t in_use() const { return locked([&] { return in_use_; }); }
    // Mappings reserved (one each with guard regions), the slots in them (Qt takes the
    // word "slots"), and returned slots that kept their pages.
    std::size_t chunks() const { return locked([&] { return chunks_.size(); }); }
    std::size_t slots_reserved() const { return locked([&] { return slots_; }); }
    std::size_t warm() const { return locked([&] { return warm_.size(); }); }

private:
    template <class Read>
    std::size_t locked(Read read) const {
        std::lock_guard lock(mutex_);
        return read();
    }
    struct Registry;
    static Registry& registry();
    static void lock_all();  // around a fork
    static void unlock_all();
    struct Chunk {
        char* base;
        std::size_t count;  // its slots
    };
    void add_chunk();  // throws HostResourceError
    char* guard_next_slot();
    boost::context::stack_context context_of(char* slot) const;
    char* slot_of(const boost::context::stack_context& sc) const;

    const std::size_t page_;
    const std::size_t stack_bytes_;  // rounded up to pages
    const std::size_t slot_bytes_;   // guard page + stack
    const std::size_t keep_warm_;
    Guards guards_;  // as the constructor settled it: best means the kernel's guard regions

    mutable std::mutex mutex_;
    std::vector<Chunk> chunks_;
    std::size_t fresh_ = 0;  // slots of the last chunk handed out at least once
    std::vector<char*> warm_, cold_;
    std::size_t in_use_ = 0;
    std::size_t slots_ = 0;
};

}  // namespace niclab::host
