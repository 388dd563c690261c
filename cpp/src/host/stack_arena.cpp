#include "niclab/host/stack_arena.hpp"

#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <map>
#include <string>

#ifndef MADV_GUARD_INSTALL
#define MADV_GUARD_INSTALL 102  // Linux 6.13 (uapi/asm-generic/mman-common.h); older libc headers lack it
#endif

namespace niclab::host {

namespace {

// A chunk holds as many slots as all earlier chunks together (so the mappings grow
// with the logarithm of the stacks), from 64 up to 4,096.
constexpr std::size_t kFirstChunkSlots = 64;
constexpr std::size_t kMaxChunkSlots = 4096;

// Why a stack could not be had (sim::why_not_had says which resource ran out).
std::string why_no_stack(std::size_t stack_bytes, const std::string& doing) {
    return sim::why_not_had("a host process's stack (" + std::to_string(stack_bytes / 1024) + " KB)", doing);
}

// Whether this kernel installs guard pages inside a mapping (Linux 6.13 and later).
bool kernel_has_guard_regions() {
    static const bool has = [] {
        const std::size_t page = std::size_t(sysconf(_SC_PAGESIZE));
        void* p = mmap(nullptr, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED) return false;
        const bool ok = madvise(p, page, MADV_GUARD_INSTALL) == 0;
        munmap(p, 2 * page);
        return ok;
    }();
    return has;
}

}  // namespace

StackArena::StackArena(std::size_t stack_bytes, Guards guards, std::size_t keep_warm)
    : page_(std::size_t(sysconf(_SC_PAGESIZE))), stack_bytes_((stack_bytes + page_ - 1) / page_ * page_),
      slot_bytes_(stack_bytes_ + page_), keep_warm_(keep_warm),
      guards_(guards == Guards::best && !kernel_has_guard_regions() ? Guards::page_protection : guards) {
    // Reserved up front so giving a slot back never allocates (give is noexcept).
    warm_.reserve(keep_warm_);
}

StackArena::~StackArena() {
    for (const Chunk& c : chunks_) munmap(c.base, c.count * slot_bytes_);
}

// The shared arenas, by stack size. Never destroyed (see the header).
struct StackArena::Registry {
    std::mutex mutex;
    std::map<std::size_t, StackArena*> arenas;
};

// A fork (a sweep's workers are forked) copies only the forking thread: a lock another
// thread held at that moment would stay locked in the child, whose first host process
// would then wait forever. So the fork waits until it can hold every shared arena's
// lock, and both sides let go after it, as malloc does with its own.
StackArena::Registry& StackArena::registry() {
    static Registry* r = [] {
        auto* made = new Registry;
        pthread_atfork(&StackArena::lock_all, &StackArena::unlock_all, &StackArena::unlock_all);
        return made;
    }();
    return *r;
}
void StackArena::lock_all() {
    Registry& r = registry();
    r.mutex.lock();
    for (auto& [bytes, arena] : r.arenas) arena->mutex_.lock();
}
void StackArena::unlock_all() {
    Registry& r = registry();
    for (auto& [bytes, arena] : r.arenas) arena->mutex_.unlock();
    r.mutex.unlock();
}

StackArena& StackArena::shared(std::size_t stack_bytes) {
    Registry& r = registry();
    std::lock_guard lock(r.mutex);
    StackArena*& arena = r.arenas[stack_bytes];
    if (!arena) arena = new StackArena(stack_bytes);
    return *arena;
}

bool StackArena::guard_regions() const { return guards_ == Guards::best; }

// Where the whole chunk's address space is refused (an address space limit, such as
// bench_scale's --max-gb), a smaller one down to a single slot is tried before failing.
void StackArena::add_chunk() {
    std::size_t n = std::clamp(slots_, kFirstChunkSlots, kMaxChunkSlots);
    cold_.reserve(slots_ + n);  // before the mapping, so a refusal leaves nothing to undo
    void* base = MAP_FAILED;
    for (; n > 0; n /= 2) {
        base = mmap(nullptr, n * slot_bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (base != MAP_FAILED) break;
    }
    if (base == MAP_FAILED)
        throw HostResourceError(why_no_stack(stack_bytes_, "reserving room for one more"));
    chunks_.push_back({static_cast<char*>(base), n});
    slots_ += n;
    fresh_ = 0;
}

// The guard page lowest in the slot, the stack above it (stacks grow down).
char* StackArena::guard_next_slot() {
    if (chunks_.empty() || fresh_ == chunks_.back().count) add_chunk();
    char* slot = chunks_.back().base + fresh_ * slot_bytes_;
    const int advice = guards_ == Guards::best ? madvise(slot, page_, MADV_GUARD_INSTALL)
                                               : mprotect(slot, page_, PROT_NONE);
    if (advice != 0) throw HostResourceError(why_no_stack(stack_bytes_, "guarding it"));
    ++fresh_;
    return slot;
}

boost::context::stack_context StackArena::context_of(char* slot) const {
    boost::context::stack_context sc;
    sc.size = stack_bytes_;
    sc.sp = slot + slot_bytes_;
    return sc;
}
char* StackArena::slot_of(const boost::context::stack_context& sc) const {
    return static_cast<char*>(sc.sp) - slot_bytes_;
}

boost::context::stack_context StackArena::take() {
    std::lock_guard lock(mutex_);
    char* slot;
    if (!warm_.empty()) {
        slot = warm_.back();
        warm_.pop_back();
    } else if (!cold_.empty()) {
        slot = cold_.back();
        cold_.pop_back();
    } else {
        slot = guard_next_slot();
    }
    ++in_use_;
    return context_of(slot);
}

void StackArena::give(boost::context::stack_context& sc) noexcept {
    std::lock_guard lock(mutex_);
    char* slot = slot_of(sc);
    --in_use_;
    if (warm_.size() < keep_warm_) {
        warm_.push_back(slot);
    } else {
        madvise(slot + page_, stack_bytes_, MADV_DONTNEED);  // the pages go back; the guard stays
        cold_.push_back(slot);
    }
}

}  // namespace niclab::host
