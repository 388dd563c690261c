#pragma once
// The kernel's runnables to visit (sim::Kernel::drive_runnables): those of the pass under
// way, then those of the next (a runnable woken behind the pass's cursor waits for the
// next pass), each set in registration order. Two sets of registration numbers as bitsets,
// each with a summary bit per word: a visit takes the lowest bit set, where a binary heap
// of (pass, order) took about log2(n) compares and moves per visit and per wake-up, on
// every core run (a 64-node halo runs its cores about 240 times per message).
#include <bit>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace niclab::sim {

class ReadyQueue {
public:
    // Registration numbers below `n` may be pushed.
    void reserve_orders(uint64_t n) {
        const size_t words = size_t((n + 63) / 64);
        for (Set* s : {&current_, &next_}) {
            if (s->words.size() >= words) continue;
            s->words.resize(words, 0);
            s->summary.resize((words + 63) / 64, 0);
        }
    }
    bool empty() const { return current_.count == 0 && next_.count == 0; }
    // Any of the pass under way?
    bool has_current() const { return current_.count != 0; }
    // For the pass under way, or the next.
    void push(uint64_t order, bool next_pass) { (next_pass ? next_ : current_).insert(order); }
    // The first to visit (not empty()): the lowest of the pass under way, else of the next.
    uint64_t front() const { return current_.count ? current_.lowest() : next_.lowest(); }
    uint64_t pop() {
        Set& s = current_.count ? current_ : next_;
        const uint64_t order = s.lowest();
        s.remove(order);
        return order;
    }
    void erase(uint64_t order) {
        for (Set* s : {&current_, &next_})
            if (s->contains(order)) s->remove(order);
    }
    // A new pass begins: the next pass's runnables are the current ones. The pass before
    // has left none of its own (it visits all, or stops, and then merge() comes first).
    void advance() {
        if (current_.count) throw std::logic_error("ReadyQueue: a pass began with runnables of the last one left");
        std::swap(current_, next_);
    }
    // A stopped pass's leftovers and the next pass's: all in the pass that begins.
    void merge() {
        for (size_t w = 0; w < next_.words.size(); ++w)
            for (uint64_t bits = next_.words[w]; bits; bits &= bits - 1)
                current_.insert(w * 64 + uint64_t(std::countr_zero(bits)));
        next_.clear();
    }
    void clear() {
        current_.clear();
        next_.clear();
    }
    // Every registration number in either set, in no particular order.
    template <typename F>
    void for_each(F f) const {
        for (const Set* s : {&current_, &next_})
            for (size_t w = 0; w < s->words.size(); ++w)
                for (uint64_t bits = s->words[w]; bits; bits &= bits - 1) f(w * 64 + uint64_t(std::countr_zero(bits)));
    }

private:
    struct Set {
        std::vector<uint64_t> words;    // bit o: registration number o is in
        std::vector<uint64_t> summary;  // bit w: words[w] is not zero
        uint64_t count = 0;
        bool contains(uint64_t o) const { return (words[o / 64] >> (o % 64)) & 1; }
        void insert(uint64_t o) {
            uint64_t& w = words[o / 64];
            const uint64_t bit = uint64_t(1) << (o % 64);
            if (w & bit) return;
            w |= bit;
            summary[o / 4096] |= uint64_t(1) << ((o / 64) % 64);
            ++count;
        }
        void remove(uint64_t o) {
            uint64_t& w = words[o / 64];
            w &= ~(uint64_t(1) << (o % 64));
            if (!w) summary[o / 4096] &= ~(uint64_t(1) << ((o / 64) % 64));
            --count;
        }
        uint64_t lowest() const {
            size_t s = 0;
            while (!summary[s]) ++s;
            const size_t w = s * 64 + size_t(std::countr_zero(summary[s]));
            return w * 64 + uint64_t(std::countr_zero(words[w]));
        }
        void clear() {
            std::fill(words.begin(), words.end(), 0);
            std::fill(summary.begin(), summary.end(), 0);
            count = 0;
        }
    };
    Set current_, next_;
};

}  // namespace niclab::sim
