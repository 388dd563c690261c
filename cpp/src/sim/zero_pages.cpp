#include "niclab/sim/zero_pages.hpp"

#include <sys/mman.h>

#include <utility>

#include "niclab/sim/host_resources.hpp"

namespace niclab::sim {

ZeroPages::ZeroPages(size_t bytes, const std::string& what) : size_(bytes) {
    if (bytes == 0) return;
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw HostResourceError(why_not_had(what + " (" + std::to_string(bytes / 1024) + " KB)", "mapping it"));
    data_ = static_cast<uint8_t*>(p);
}

ZeroPages::~ZeroPages() {
    if (data_) munmap(data_, size_);
}

ZeroPages::ZeroPages(ZeroPages&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}

ZeroPages& ZeroPages::operator=(ZeroPages&& other) noexcept {
    if (this != &other) {
        if (data_) munmap(data_, size_);
        data_ = std::exchange(other.data_, nullptr);
        size_ = std::exchange(other.size_, 0);
    }
    return *this;
}

void ZeroPages::clear() {
    // A private anonymous page given back with MADV_DONTNEED reads as zero when next
    // touched (Linux madvise(2)).
    if (data_) madvise(data_, size_, MADV_DONTNEED);
}

}  // namespace niclab::sim
