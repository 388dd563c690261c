#pragma once
// A minimal GDB for the stub's tests: connects, sends packets, reads replies (acks
// handled), with a timeout so a broken stub fails the test instead of hanging it.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <string>

#include "niclab/debug/rsp_packet.hpp"

namespace niclab::test {

class RspClient {
public:
    explicit RspClient(uint16_t port) {
        fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_port = htons(port);
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        ok_ = ::connect(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
        int one = 1;
        ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);  // as gdb does: no Nagle delay per ack
    }
    ~RspClient() { ::close(fd_); }
    bool ok() const { return ok_; }
    void send_raw(const std::string& s) { (void)!::send(fd_, s.data(), s.size(), MSG_NOSIGNAL); }
    // Sends a packet and returns the next packet received ("<timeout>" after 20 s).
    std::string call(const std::string& payload) {
        send_raw(debug::rsp_frame(payload));
        return next_packet();
    }
    std::string next_packet() {
        for (;;) {
            while (auto e = reader_.next()) {
                if (e->kind != debug::RspEvent::Kind::Packet) continue;
                send_raw("+");
                return e->payload;
            }
            pollfd p{fd_, POLLIN, 0};
            if (::poll(&p, 1, 20000) <= 0) return "<timeout>";
            char buf[4096];
            ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
            if (n <= 0) return "<closed>";
            reader_.feed(std::string_view(buf, size_t(n)));
        }
    }

private:
    int fd_ = -1;
    bool ok_ = false;
    debug::PacketReader reader_;
};

inline std::string hex_le(uint32_t v) { return debug::to_hex_le32(v); }
inline std::string hexn(uint32_t v) {
    char b[12];
    std::snprintf(b, sizeof b, "%x", v);
    return b;
}

}  // namespace niclab::test
