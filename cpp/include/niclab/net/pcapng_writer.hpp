#pragma once
// A writer of pcapng files (the IETF draft "PCAP Next Generation (pcapng) Capture File
// Format", the format Wireshark writes): one Section Header Block, Interface
// Description Blocks, Enhanced Packet Blocks, each with its options. Only what a
// simulator needs: one section, little-endian (the host's order, which readers detect
// from the byte-order magic), timestamps in nanoseconds (if_tsresol 9).
//
// Blocks are assembled in a buffer reserved when the file is opened and written out
// when it fills, on flush() and on close(), so writing a packet allocates nothing.
// A write that fails (a full disk) is remembered and raised as a CaptureError by the
// next flush() or close(): a packet event in the middle of a simulation is no place
// to throw. The bytes depend only on what is written: no host time, host name or OS.
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace niclab::net {

class PcapngWriter {
public:
    // Block types and option codes of the pcapng draft, named as there.
    static constexpr uint32_t kSectionHeaderBlock = 0x0A0D0D0A;
    static constexpr uint32_t kInterfaceDescriptionBlock = 1;
    static constexpr uint32_t kEnhancedPacketBlock = 6;
    static constexpr uint32_t kByteOrderMagic = 0x1A2B3C4D;
    static constexpr uint16_t kOptEndOfOpt = 0, kOptComment = 1;
    static constexpr uint16_t kShbHardware = 2, kShbUserAppl = 4;
    static constexpr uint16_t kIfName = 2, kIfDescription = 3, kIfTsresol = 9;
    static constexpr uint16_t kEpbFlags = 2;
    // epb_flags: bits 0-1 direction, bit 24 a CRC error (the draft's link-layer errors).
    static constexpr uint32_t kFlagInbound = 1, kFlagOutbound = 2, kFlagCrcError = 1u << 24;
    // LINKTYPE_USER0: the first of the 16 link types tcpdump.org reserves for private
    // use (147..162); Wireshark's wtap encapsulation USER0 (45).
    static constexpr uint16_t kLinkTypeUser0 = 147;

    // Creates (truncates) `path` and writes the Section Header Block with its
    // shb_hardware, shb_userappl and opt_comment (each left out when empty). Throws
    // CaptureError naming the path when the file cannot be created.
    PcapngWriter(const std::string& path, std::string_view hardware, std::string_view application,
                 std::string_view comment);
    ~PcapngWriter();  // closes; an error there is lost (call close() to see it)
    PcapngWriter(const PcapngWriter&) = delete;
    PcapngWriter& operator=(const PcapngWriter&) = delete;

    // Adds an interface (if_name, if_description, if_tsresol = 9); returns its id,
    // 0, 1, ... in order, the Enhanced Packet Blocks' interface id.
    uint32_t add_interface(uint16_t link_type, uint32_t snap_length, std::string_view name,
                           std::string_view description);
    // One packet on interface `interface` at `time_ns`, its bytes the concatenation of
    // `parts` (so a header and a payload need no copy into one buffer), with epb_flags
    // when `flags` is non-zero and opt_comment when `comment` is not empty.
    void write_packet(uint32_t interface, uint64_t time_ns, std::initializer_list<std::span<const uint8_t>> parts,
                      uint32_t flags, std::string_view comment = {});

    // Writes out the buffer; throws CaptureError naming the path if any write failed.
    void flush();
    // Flushes and closes; later calls do nothing. Throws as flush() does.
    void close();
    bool is_open() const { return file_ != nullptr; }
    const std::string& path() const { return path_; }
    uint32_t interfaces() const { return interfaces_; }
    uint64_t packets() const { return packets_; }

    // Bytes an option takes: its 4-byte code and length, and the value padded to 32 bits.
    static std::size_t option_bytes(std::size_t value_bytes) { return 4 + pad4(value_bytes); }
    static std::size_t pad4(std::size_t n) { return (n + 3) & ~std::size_t(3); }

private:
    void put16(uint16_t v);
    void put32(uint32_t v);
    void put_bytes(std::span<const uint8_t> bytes);  // padded to 32 bits with zeros
    void put_option(uint16_t code, std::span<const uint8_t> value);
    void put_option(uint16_t code, std::string_view value);
    void reserve_block(std::size_t bytes);  // writes out the buffer first if it would not fit
    void write_out();

    std::string path_;
    std::FILE* file_ = nullptr;
    std::vector<uint8_t> buffer_;
    int error_ = 0;  // errno of the first failed write
    uint32_t interfaces_ = 0;
    uint64_t packets_ = 0;
};

}  // namespace niclab::net
