#pragma once
// Limits this process's address space (RLIMIT_AS) to what it holds now plus `room` bytes,
// as `ulimit -v` or bench_scale's --max-gb would: for tests of what happens when a mapping
// is refused. Call it only in a child (a death test's), never in the test process itself.
#include <sys/resource.h>
#include <unistd.h>

#include <cstddef>
#include <fstream>

namespace niclab::test {

inline void limit_address_space_to_held_plus(std::size_t room) {
    std::ifstream statm("/proc/self/statm");
    long pages = 0;
    statm >> pages;
    const rlim_t limit_bytes = rlim_t(pages) * rlim_t(sysconf(_SC_PAGESIZE)) + room;
    const rlimit limit{limit_bytes, limit_bytes};
    setrlimit(RLIMIT_AS, &limit);
}

}  // namespace niclab::test
