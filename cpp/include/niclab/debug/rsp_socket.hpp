#pragma once
// The TCP end of a GDB stub: a listener on 127.0.0.1 only (a debugger can rewrite a
// NIC's memory; nothing off the machine should reach it) and the one connection it
// accepts. Plain POSIX sockets with poll(2) timeouts; each fd is closed by its owner.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "niclab/sim/error.hpp"

namespace niclab::debug {

// The stub could not be set up or used: the port is taken, the socket failed.
// port() names the port asked for.
class GdbServerError : public Error {
public:
    GdbServerError(uint16_t port, const std::string& message) : Error(message), port_(port) {}
    uint16_t port() const { return port_; }

private:
    uint16_t port_;
};

class RspConnection {
public:
    explicit RspConnection(int fd) : fd_(fd) {}
    ~RspConnection();
    RspConnection(const RspConnection&) = delete;
    RspConnection& operator=(const RspConnection&) = delete;

    // Bytes received, waiting up to timeout_ms (-1: forever, 0: just look). Empty with
    // open() still true means nothing arrived; the peer closing makes open() false.
    std::string receive(int timeout_ms);
    void send(std::string_view bytes);  // a failed send closes the connection
    bool open() const { return fd_ >= 0; }
    void close();

private:
    int fd_;
};

class RspListener {
public:
    // port 0: the system picks a free one (port() says which).
    explicit RspListener(uint16_t port);
    ~RspListener();
    RspListener(const RspListener&) = delete;
    RspListener& operator=(const RspListener&) = delete;

    uint16_t port() const { return port_; }
    // A connection within timeout_ms (-1: forever, 0: only one already waiting), or none.
    std::optional<int> accept(int timeout_ms);

private:
    int fd_ = -1;
    uint16_t port_ = 0;
};

}  // namespace niclab::debug
