#include "niclab/core/code_pool.hpp"

#include <atomic>
#include <cstring>
#include <mutex>
#include <string_view>
#include <vector>

#include "niclab/core/cpu.hpp"
#include "niclab/sim/process_wide.hpp"
#include "translate.hpp"

namespace niclab::core {

// Slots first and on a cache line, so no 32-byte slot straddles two lines.
struct alignas(64) CodePool::Page {
    Insn slots[kCodePageSlots];
    uint8_t bytes[kCodePageBytes];  // the bytes it was decoded from: a hash is not proof
    CodeKey key;
};

namespace {

// The pools given back, the latest last, behind a lock held only to take or keep one
// (sim::process_wide: a forked child has copies of them, its own from then on).
struct Kept {
    std::mutex mutex;
    std::vector<CodePool*> pools;
    std::atomic<bool> on{true};
};
Kept& kept() { return sim::process_wide<Kept>(); }
[[maybe_unused]] const bool kept_made = (kept(), true);  // as the library loads (process_wide.hpp)

}  // namespace

CodePool::Lease CodePool::take() {
    Kept& k = kept();
    {
        std::lock_guard lock(k.mutex);
        if (!k.pools.empty()) {
            CodePool* pool = k.pools.back();
            k.pools.pop_back();
            return Lease(pool);
        }
    }
    return Lease(new CodePool);
}

void CodePool::GiveBack::operator()(CodePool* pool) const {
    Kept& k = kept();
    const bool small = pool->pages() <= kKeptPages && !(pool->translator_ && pool->translator_->half_full());
    if (k.on.load(std::memory_order_relaxed) && small) {
        std::lock_guard lock(k.mutex);
        k.pools.push_back(pool);
        if (k.pools.size() <= kKept) return;
        pool = k.pools.front();  // the oldest goes
        k.pools.erase(k.pools.begin());
    }
    delete pool;
}

void CodePool::set_recycling(bool on) {
    Kept& k = kept();
    k.on = on;
    if (on) return;
    std::vector<CodePool*> gone;
    {
        std::lock_guard lock(k.mutex);
        gone.swap(k.pools);
    }
    for (CodePool* pool : gone) delete pool;
}

CodePool::CodePool() = default;
CodePool::~CodePool() = default;

uint64_t CodePool::translated_slots() const { return translator_ ? translator_->slots_translated() : 0; }

Translator& CodePool::translator() {
    if (!translator_) translator_ = std::make_unique<Translator>();
    return *translator_;
}

const uint8_t* CodePool::bytes_of(const Insn* page) {
    return reinterpret_cast<const Page*>(page)->bytes;  // its slots are the page's first member
}

Insn* CodePool::page(const uint8_t* bytes, const CodeKey& key, const CoreConfig& cfg) {
    const size_t hash = std::hash<std::string_view>{}({reinterpret_cast<const char*>(bytes), kCodePageBytes});
    auto [first, last] = pages_.equal_range(hash);
    for (auto it = first; it != last; ++it)
        if (it->second->key == key && std::memcmp(it->second->bytes, bytes, kCodePageBytes) == 0)
            return it->second->slots;
    auto made = std::make_unique<Page>();
    made->key = key;
    std::memcpy(made->bytes, bytes, kCodePageBytes);
    for (uint32_t w = 0; w < kCodePageSlots; ++w) {
        uint32_t raw;
        std::memcpy(&raw, bytes + 4 * w, 4);
        made->slots[w] = decode(raw, cfg);
    }
    return pages_.emplace(hash, std::move(made))->second->slots;
}

}  // namespace niclab::core
