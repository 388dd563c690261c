#include "niclab/debug/rsp_socket.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace niclab::debug {

namespace {
bool wait_readable(int fd, int timeout_ms) {
    pollfd p{fd, POLLIN, 0};
    int r;
    do r = ::poll(&p, 1, timeout_ms);
    while (r < 0 && errno == EINTR);
    return r > 0;
}
}  // namespace

RspConnection::~RspConnection() { close(); }

void RspConnection::close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
}

std::string RspConnection::receive(int timeout_ms) {
    if (fd_ < 0 || !wait_readable(fd_, timeout_ms)) return {};
    char buf[4096];
    ssize_t n;
    do n = ::recv(fd_, buf, sizeof buf, 0);
    while (n < 0 && errno == EINTR);
    if (n <= 0) {  // orderly close or a reset: the debugger is gone
        close();
        return {};
    }
    return std::string(buf, size_t(n));
}

void RspConnection::send(std::string_view bytes) {
    while (fd_ >= 0 && !bytes.empty()) {
        ssize_t n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            close();
            return;
        }
        bytes.remove_prefix(size_t(n));
    }
}

RspListener::RspListener(uint16_t port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd_ < 0) throw GdbServerError(port, std::string("gdb server: cannot create a socket: ") + std::strerror(errno));
    int one = 1;
    ::setsockopt(fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);  // a restarted stub may reuse its port at once
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) < 0 || ::listen(fd_, 1) < 0) {
        int err = errno;
        ::close(fd_);
        fd_ = -1;
        throw GdbServerError(port, "gdb server: cannot listen on 127.0.0.1 port " + std::to_string(port) + ": " +
                                       std::strerror(err) +
                                       (err == EADDRINUSE ? " (choose another port, or port 0 for any free one)" : ""));
    }
    socklen_t len = sizeof addr;
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
}

RspListener::~RspListener() {
    if (fd_ >= 0) ::close(fd_);
}

std::optional<int> RspListener::accept(int timeout_ms) {
    if (!wait_readable(fd_, timeout_ms)) return std::nullopt;
    int fd = ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) return std::nullopt;
    int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);  // packets are small and latency-bound
    return fd;
}

}  // namespace niclab::debug
