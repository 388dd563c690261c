#pragma once
// Decoded code pages shared between the cores of one simulation (one sim::Kernel) that
// run the same code. On a Red Storm every NIC runs the same Portals firmware, and a
// core's decoded page (a slot per word, Cpu::code_page) is a function of its 4 KB of
// code and of its core's configuration, so one copy serves every node instead of 10,368.
//
// A page is looked up by its bytes and its CodeKey when a core first enters it, and
// decoded whole when first made (so no slot of it is ever decoded from one core's
// SRAM). Cores build blocks into its slots (block.cpp): a block depends only on the
// slots, the fetch line and where lines start, all the same for every core that shares
// it - and for a core's copy of it, where the block's words are still the page's bytes
// (Cpu::share_block). A store into a word of it that no block covers (a data word: the
// globals that begin where a firmware's text ends) forgets that word there, for every
// core, and a core that then reaches it decodes it in a copy of its own (Cpu::forget_slot).
// A core never changes a shared page otherwise: a store into code, an invalidation of it,
// a breakpoint gives that core a private copy first (Cpu::private_page).
//
// Not thread-safe: the cores of one kernel run on one thread; several simulations on
// several threads each have their own pool (system::System leases one, below).
//
// A pool outlives its simulation. Decoding and translating a firmware's code is most of
// building a two-node SeaStar system and running its first round trip (some 2.5 ms of 4), so a
// simulation that ends gives its pool back (CodePool::take's Lease), and the next one the
// process builds - a sweep's next point, a notebook cell run again, a test after a test -
// takes it with the pages and host code it holds: the same firmware starts decoded and
// translated. One live simulation holds a pool at a time, whatever its thread. What a
// simulation does never depends on what its pool held before: sharing and translation
// change the host code, never a result (SharedCode, BlockDispatch; RecycledCodePool runs
// the same systems on fresh and on recycled pools and compares them).
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <unordered_map>

namespace niclab::core {

struct Insn;
struct CoreConfig;
class Translator;

// The geometry of decoded code: a page of slots, one per SRAM word. 16 KB: the Portals
// firmware's text (10.9 KB with its read-only data, at SRAM 0x10000) lies in one page, so
// its calls and returns chain from block to block inside the fetch page instead of going
// back to the loop to find another page (Cpu::fetch_slow, 192 times a 0-byte round trip
// with 4 KB pages): 4 % fewer host instructions a round trip. A page's slots take 128 KB,
// made once per image and configuration for every core (CodePool); a core's own copy of
// one (a store into code, a breakpoint) costs that much.
constexpr uint32_t kCodePageShift = 14;
constexpr uint32_t kCodePageBytes = 1u << kCodePageShift;
constexpr uint32_t kCodePageMask = kCodePageBytes - 1;
constexpr uint32_t kCodePageSlots = kCodePageBytes / 4;

// Everything a decoded page with its blocks depends on besides its bytes.
struct CodeKey {
    std::array<uint32_t, 6> decode{};  // decode_inputs(config)
    uint32_t line_shift = 0;           // a block ends at the end of its fetch line
    // Where the views' lines start relative to the page: a block's line is its pc's.
    uint32_t cached_phase = 0, uncached_phase = 0;
    bool operator==(const CodeKey&) const = default;
};

class CodePool {
public:
    CodePool();
    ~CodePool();
    CodePool(const CodePool&) = delete;
    CodePool& operator=(const CodePool&) = delete;

    // The decoded page of these kCodePageBytes under `key` (made from `cfg`, whose
    // decode_inputs are key.decode): the one made before for the same bytes and key, or
    // a new one, decoded whole now. It lives as long as the pool: a core may still be
    // running an instruction of a page it has just stopped using.
    Insn* page(const uint8_t* bytes, const CodeKey& key, const CoreConfig& cfg);
    // The bytes a page (as page() gave it) was decoded from.
    static const uint8_t* bytes_of(const Insn* page);
    size_t pages() const { return pages_.size(); }
    // The host code of its pages' blocks (translate.hpp), made with the pool and living as
    // long as it does: a core's private copy of a page keeps its entries.
    Translator& translator();
    uint64_t translated_slots() const;  // slots whose entry is host code, ever

    // A pool for a new simulation: the one most recently given back, or a new one. The
    // Lease gives it back when the simulation lets go of it; a pool is kept only while it
    // is small (kKeptPages pages, half its translator's arena) and at most kKept of them,
    // so a process that loads many firmwares keeps a few megabytes, not all of them.
    struct GiveBack {
        void operator()(CodePool* pool) const;
    };
    using Lease = std::unique_ptr<CodePool, GiveBack>;
    static Lease take();
    // Off, every lease is a new pool and none is kept (to compare; on by default).
    static void set_recycling(bool on);
    static constexpr size_t kKept = 2, kKeptPages = 32;

private:
    struct Page;
    std::unordered_multimap<size_t, std::unique_ptr<Page>> pages_;  // by a hash of the bytes
    std::unique_ptr<Translator> translator_;
};

}  // namespace niclab::core
