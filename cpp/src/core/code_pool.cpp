#include "niclab/core/code_pool.hpp"

#include <cstring>
#include <string_view>

#include "niclab/core/cpu.hpp"
#include "translate.hpp"

namespace niclab::core {

// Slots first and on a cache line, so no 32-byte slot straddles two lines.
struct alignas(64) CodePool::Page {
    Insn slots[kCodePageSlots];
    uint8_t bytes[kCodePageBytes];  // the bytes it was decoded from: a hash is not proof
    CodeKey key;
};

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
