#pragma once
// Multicast fragmentation and reassembly (seed 004 §8.2.3, L2129-2131; digest §2.9):
// "similar to the mechanisms used for active messages" (§8.2.1, Fig. 8.9): a message
// larger than one GRIM message goes out as three kinds of multicast active messages on
// its tree -- a small init (the original handler, its four arguments, the size), body
// fragments, and a final fragment -- each handled by one of three library handlers at
// every member: init allocates a reassembly buffer, body copies its fragment into it at
// its offset, final copies the last block, runs the original handler on the whole
// message and frees the buffer. A fragmented message is named "by the sending endpoint
// id, the multicast tree id, and a counter value" (L2131): every fragment carries
// (GRIM endpoint << 8 | tree) and the sender's counter for that tree, so fragmented
// messages from several senders and trees interleave at a receiver without mixing up.
// One sender's fragments on one tree arrive in order (one LC to the root, then the
// tree's tickets, §8.1.4).
#include <cstdint>
#include <map>

namespace niclab::grim {

// The handler names the library registers with the global handler server (§4.4.1).
inline constexpr const char* kMcFragmentInit = "grim.mc.fragment.init";
inline constexpr const char* kMcFragmentBody = "grim.mc.fragment.body";
inline constexpr const char* kMcFragmentFinal = "grim.mc.fragment.final";

// A fragment's first two arguments: the reassembly id of L2131.
inline constexpr uint32_t mc_fragment_key(uint32_t endpoint, uint32_t tree) { return endpoint << 8 | (tree & 0xFFu); }

// Host memory the reassembly buffers come from: first fit over one region, freed
// blocks merged with their neighbours. The handlers' copies are the process's; nothing
// DMAs here.
class ReassemblyArena {
public:
    ReassemblyArena(uint64_t base, uint64_t bytes) : base_(base), bytes_(bytes) { free_[base] = bytes; }
    // The buffer's address; 0 when no free block holds `bytes`.
    uint64_t allocate(uint64_t bytes);
    void release(uint64_t addr);
    uint64_t in_use() const { return used_.size(); }
    uint64_t bytes() const { return bytes_; }

private:
    uint64_t base_, bytes_;
    std::map<uint64_t, uint64_t> free_;  // address -> length
    std::map<uint64_t, uint64_t> used_;
};

}  // namespace niclab::grim
