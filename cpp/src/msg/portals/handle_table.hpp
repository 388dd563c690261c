#pragma once
// A fixed-capacity table of library objects (event queues, match entries, memory
// descriptors) addressed by Portals handles. A handle is the slot index in the low
// 16 bits and the slot's generation in the high 16 bits; freeing a slot bumps its
// generation, so a handle kept after its object was freed is recognised as stale.
// Generations run 1..0xFFFE, so no handle equals PTL_INVALID_HANDLE (0xFFFFFFFF).
// Freed slots are reused last-freed-first: deterministic, and a stale handle's slot
// is soon in use again (which the generation check must then catch).
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace niclab::portals {

inline constexpr uint32_t kMaxHandleSlots = 0xFFFF;

inline std::string handle_str(uint32_t handle) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08x", handle);
    return buf;
}

template <class T>
class HandleTable {
public:
    explicit HandleTable(uint32_t capacity) : capacity_(capacity) {}

    bool full() const { return free_.empty() && slots_.size() >= capacity_; }
    uint32_t capacity() const { return capacity_; }

    // Takes ownership of `object`; the caller checks full() first.
    uint32_t insert(std::unique_ptr<T> object) {
        uint32_t index;
        if (!free_.empty()) {
            index = free_.back();
            free_.pop_back();
        } else {
            index = uint32_t(slots_.size());
            slots_.emplace_back();
        }
        slots_[index].object = std::move(object);
        return (uint32_t(slots_[index].generation) << 16) | index;
    }

    T* find(uint32_t handle) {
        uint32_t index = handle & 0xFFFFu;
        if (index >= slots_.size()) return nullptr;
        Slot& s = slots_[index];
        if (!s.object || s.generation != (handle >> 16)) return nullptr;
        return s.object.get();
    }
    const T* find(uint32_t handle) const { return const_cast<HandleTable*>(this)->find(handle); }

    void erase(uint32_t handle) {
        if (!find(handle)) return;
        Slot& s = slots_[handle & 0xFFFFu];
        s.object.reset();
        s.generation = s.generation >= 0xFFFE ? 1 : uint16_t(s.generation + 1);
        free_.push_back(handle & 0xFFFFu);
    }

    // Every live handle in slot order (deterministic).
    std::vector<uint32_t> handles() const {
        std::vector<uint32_t> out;
        for (uint32_t i = 0; i < slots_.size(); ++i)
            if (slots_[i].object) out.push_back((uint32_t(slots_[i].generation) << 16) | i);
        return out;
    }

private:
    struct Slot {
        std::unique_ptr<T> object;
        uint16_t generation = 1;
    };
    uint32_t capacity_;
    std::vector<Slot> slots_;
    std::vector<uint32_t> free_;
};

}  // namespace niclab::portals
