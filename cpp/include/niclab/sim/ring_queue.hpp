#pragma once
// A first-in first-out queue on a ring that grows to the most it has held and then
// allocates nothing. std::deque, used as a queue, frees a block of entries when its front
// has passed it and allocates another when its back fills one: a malloc and a free every
// few dozen entries, in steady state, on the paths of every message (a host's interrupts,
// a driver's commands on their way to the NIC).
#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

namespace niclab::sim {

template <typename T>
class RingQueue {
public:
    bool empty() const { return size_ == 0; }
    size_t size() const { return size_; }
    T& front() { return items_[head_]; }
    const T& front() const { return items_[head_]; }
    T& back() { return (*this)[size_ - 1]; }
    // i < size(), from the front
    T& operator[](size_t i) { return items_[(head_ + i) & (items_.size() - 1)]; }
    const T& operator[](size_t i) const { return items_[(head_ + i) & (items_.size() - 1)]; }
    // Front to back (a driver's sends, looked through for the next to start).
    template <typename Q, typename V>
    class Iterator {
    public:
        Iterator(Q* q, size_t i) : q_(q), i_(i) {}
        V& operator*() const { return (*q_)[i_]; }
        V* operator->() const { return &(*q_)[i_]; }
        Iterator& operator++() {
            ++i_;
            return *this;
        }
        bool operator==(const Iterator& o) const { return i_ == o.i_; }

    private:
        Q* q_;
        size_t i_;
    };
    auto begin() { return Iterator<RingQueue, T>(this, 0); }
    auto end() { return Iterator<RingQueue, T>(this, size_); }
    auto begin() const { return Iterator<const RingQueue, const T>(this, 0); }
    auto end() const { return Iterator<const RingQueue, const T>(this, size_); }
    void push_back(T item) {
        if (size_ == items_.size()) grow();
        items_[(head_ + size_) & (items_.size() - 1)] = std::move(item);
        ++size_;
    }
    void pop_front() {
        items_[head_] = T{};  // what it holds goes now (a handler's captures), not when overwritten
        head_ = (head_ + 1) & (items_.size() - 1);
        --size_;
    }
    // Takes the first entry equal to `item` out of the queue, the others keeping their
    // order (a process that leaves a run queue or a condition's waiters before its turn).
    // False when there is none.
    bool erase(const T& item) {
        const size_t mask = items_.size() - 1;
        size_t i = 0;
        while (i < size_ && !(items_[(head_ + i) & mask] == item)) ++i;
        if (i == size_) return false;
        for (; i + 1 < size_; ++i) items_[(head_ + i) & mask] = std::move(items_[(head_ + i + 1) & mask]);
        items_[(head_ + i) & mask] = T{};
        --size_;
        return true;
    }

private:
    void grow() {  // a power of two, so a position wraps with a mask
        std::vector<T> grown(std::max<size_t>(8, 2 * items_.size()));
        for (size_t i = 0; i < size_; ++i) grown[i] = std::move(items_[(head_ + i) & (items_.size() - 1)]);
        items_ = std::move(grown);
        head_ = 0;
    }
    std::vector<T> items_;
    size_t head_ = 0, size_ = 0;
};

}  // namespace niclab::sim
