// pcapng blocks, byte by byte (pcapng_writer.hpp). Every block is
//   block type (4) | block total length (4) | body, padded to 32 bits | block total length (4)
// and every option  code (2) | value length (2) | value, padded to 32 bits,
// the list ending with opt_endofopt (code 0, length 0).
#include "niclab/net/pcapng_writer.hpp"

#include <cerrno>
#include <cstring>

#include "niclab/net/network_error.hpp"

namespace niclab::net {

namespace {
// Big enough that a saturated network's capture is written in large pieces, small
// enough to be unremarkable next to a simulated host memory.
constexpr std::size_t kBufferBytes = 1 << 20;

std::span<const uint8_t> bytes_of(std::string_view s) { return {reinterpret_cast<const uint8_t*>(s.data()), s.size()}; }
}  // namespace

PcapngWriter::PcapngWriter(const std::string& path, std::string_view hardware, std::string_view application,
                           std::string_view comment)
    : path_(path) {
    file_ = std::fopen(path.c_str(), "wb");
    if (!file_)
        throw CaptureError("cannot write capture file '" + path + "': " + std::strerror(errno), "", path);
    std::setvbuf(file_, nullptr, _IONBF, 0);  // the buffer below is the only one
    buffer_.reserve(kBufferBytes);
    auto opt = [](std::string_view v) { return v.empty() ? 0 : option_bytes(v.size()); };
    const std::size_t total = 28 + opt(hardware) + opt(application) + opt(comment) + 4;
    reserve_block(total);
    put32(kSectionHeaderBlock);
    put32(uint32_t(total));
    put32(kByteOrderMagic);
    put16(1);  // major version
    put16(0);  // minor version
    put32(0xFFFFFFFF);  // section length: not given (-1), as a streaming writer must
    put32(0xFFFFFFFF);
    if (!comment.empty()) put_option(kOptComment, comment);
    if (!hardware.empty()) put_option(kShbHardware, hardware);
    if (!application.empty()) put_option(kShbUserAppl, application);
    put32(kOptEndOfOpt);
    put32(uint32_t(total));
}

PcapngWriter::~PcapngWriter() {
    try {
        close();
    } catch (const CaptureError&) {
    }
}

uint32_t PcapngWriter::add_interface(uint16_t link_type, uint32_t snap_length, std::string_view name,
                                     std::string_view description) {
    const std::size_t total = 20 + (name.empty() ? 0 : option_bytes(name.size())) +
                              (description.empty() ? 0 : option_bytes(description.size())) + option_bytes(1) + 4;
    reserve_block(total);
    put32(kInterfaceDescriptionBlock);
    put32(uint32_t(total));
    put16(link_type);
    put16(0);  // reserved
    put32(snap_length);
    if (!name.empty()) put_option(kIfName, name);
    if (!description.empty()) put_option(kIfDescription, description);
    const uint8_t tsresol = 9;  // 10^-9 s: nanoseconds
    put_option(kIfTsresol, std::span<const uint8_t>(&tsresol, 1));
    put32(kOptEndOfOpt);
    put32(uint32_t(total));
    return interfaces_++;
}

void PcapngWriter::write_packet(uint32_t interface, uint64_t time_ns,
                                std::initializer_list<std::span<const uint8_t>> parts, uint32_t flags,
                                std::string_view comment) {
    std::size_t length = 0;
    for (const auto& p : parts) length += p.size();
    const std::size_t options = (flags ? option_bytes(4) : 0) + (comment.empty() ? 0 : option_bytes(comment.size()));
    const std::size_t total = 28 + pad4(length) + (options ? options + 4 : 0) + 4;
    reserve_block(total);
    put32(kEnhancedPacketBlock);
    put32(uint32_t(total));
    put32(interface);
    put32(uint32_t(time_ns >> 32));
    put32(uint32_t(time_ns));
    put32(uint32_t(length));  // captured length
    put32(uint32_t(length));  // original length: nothing is cut off
    for (const auto& p : parts) buffer_.insert(buffer_.end(), p.begin(), p.end());
    buffer_.insert(buffer_.end(), pad4(length) - length, uint8_t(0));
    if (options) {
        if (flags) {
            const uint8_t f[4] = {uint8_t(flags), uint8_t(flags >> 8), uint8_t(flags >> 16), uint8_t(flags >> 24)};
            put_option(kEpbFlags, std::span<const uint8_t>(f, 4));
        }
        if (!comment.empty()) put_option(kOptComment, comment);
        put32(kOptEndOfOpt);
    }
    put32(uint32_t(total));
    ++packets_;
}

void PcapngWriter::put16(uint16_t v) {
    buffer_.push_back(uint8_t(v));
    buffer_.push_back(uint8_t(v >> 8));
}

void PcapngWriter::put32(uint32_t v) {
    put16(uint16_t(v));
    put16(uint16_t(v >> 16));
}

void PcapngWriter::put_bytes(std::span<const uint8_t> bytes) {
    buffer_.insert(buffer_.end(), bytes.begin(), bytes.end());
    buffer_.insert(buffer_.end(), pad4(bytes.size()) - bytes.size(), uint8_t(0));
}

void PcapngWriter::put_option(uint16_t code, std::span<const uint8_t> value) {
    put16(code);
    put16(uint16_t(value.size()));
    put_bytes(value);
}

void PcapngWriter::put_option(uint16_t code, std::string_view value) {
    // An option's value is at most 65535 bytes; a longer text is cut there.
    put_option(code, bytes_of(value.substr(0, 0xFFFC)));
}

void PcapngWriter::reserve_block(std::size_t bytes) {
    if (!file_) throw CaptureError("capture file '" + path_ + "' is closed", "", path_);
    if (buffer_.size() + bytes > buffer_.capacity()) write_out();
}

void PcapngWriter::write_out() {
    if (buffer_.empty()) return;
    if (!error_ && std::fwrite(buffer_.data(), 1, buffer_.size(), file_) != buffer_.size()) error_ = errno ? errno : EIO;
    buffer_.clear();
}

void PcapngWriter::flush() {
    if (!file_) return;
    write_out();
    if (!error_ && std::fflush(file_) != 0) error_ = errno ? errno : EIO;
    if (error_)
        throw CaptureError("writing capture file '" + path_ + "' failed: " + std::strerror(error_), "", path_);
}

void PcapngWriter::close() {
    if (!file_) return;
    write_out();
    if (!error_ && std::fflush(file_) != 0) error_ = errno ? errno : EIO;
    if (std::fclose(file_) != 0 && !error_) error_ = errno ? errno : EIO;
    file_ = nullptr;
    if (error_)
        throw CaptureError("writing capture file '" + path_ + "' failed: " + std::strerror(error_), "", path_);
}

}  // namespace niclab::net
