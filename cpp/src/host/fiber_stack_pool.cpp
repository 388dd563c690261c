#include "niclab/host/fiber_stack_pool.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <string>

namespace niclab::host {

namespace {

// Lines of a /proc file, or its first number: -1 where it cannot be read (not Linux).
long proc_lines(const char* path) {
    std::ifstream in(path);
    if (!in) return -1;
    long n = 0;
    for (std::string line; std::getline(in, line);) ++n;
    return n;
}
long proc_number(const char* path) {
    std::ifstream in(path);
    long v = -1;
    return in >> v ? v : -1;
}

// Why mapping a stack failed: the mappings this process holds against the kernel's
// limit, when that is what ran out, or memory.
std::string why_no_stack(std::size_t bytes) {
    const std::string what = "a host process's stack (" + std::to_string(bytes / 1024) +
                             " KB and a guard page: two memory mappings) could not be mapped: ";
    const long held = proc_lines("/proc/self/maps"), limit = proc_number("/proc/sys/vm/max_map_count");
    if (held >= 0 && limit > 0 && held + 2 > limit)
        return what + "the simulation holds all the memory mappings the kernel allows a process (vm.max_map_count = " +
               std::to_string(limit) + "); raise it (sysctl -w vm.max_map_count=" + std::to_string(limit * 4) +
               ") or simulate fewer host processes";
    return what + "the machine is out of memory";
}

}  // namespace

FiberStackPool::FiberStackPool(std::size_t stack_bytes, std::size_t max_idle)
    : stack_bytes_(stack_bytes), max_idle_(max_idle) {
    // Reserved up front so giving a stack back never allocates (deallocate is noexcept).
    idle_.reserve(max_idle_);
}

FiberStackPool::~FiberStackPool() {
    for (auto& sc : idle_) unmap_stack(sc);
}

boost::context::stack_context FiberStackPool::allocate() {
    boost::context::stack_context sc;
    if (!idle_.empty()) {
        sc = idle_.back();
        idle_.pop_back();
    } else {
        sc = map_stack();
    }
    peak_in_use_ = std::max(peak_in_use_, ++in_use_);
    return sc;
}

void FiberStackPool::deallocate(boost::context::stack_context& sc) noexcept {
    --in_use_;
    if (idle_.size() < max_idle_) idle_.push_back(sc);
    else unmap_stack(sc);
}

// The guard page lowest, the stack above it (it grows down), the two one mapping until
// mprotect splits them; a refusal of either is the caller's error, with nothing left mapped.
boost::context::stack_context FiberStackPool::map_stack() const {
    const std::size_t page = std::size_t(sysconf(_SC_PAGESIZE));
    const std::size_t bytes = (stack_bytes_ + page - 1) / page * page + page;
    void* base = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED) throw HostResourceError(why_no_stack(stack_bytes_));
    if (mprotect(base, page, PROT_NONE) != 0) {
        munmap(base, bytes);
        throw HostResourceError(why_no_stack(stack_bytes_));
    }
    boost::context::stack_context sc;
    sc.size = bytes;
    sc.sp = static_cast<char*>(base) + bytes;
    return sc;
}

void FiberStackPool::unmap_stack(boost::context::stack_context& sc) const noexcept {
    munmap(static_cast<char*>(sc.sp) - sc.size, sc.size);
}

}  // namespace niclab::host
