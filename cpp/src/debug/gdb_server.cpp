#include "niclab/debug/gdb_server.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "niclab/debug/target_description.hpp"

namespace niclab::debug {

namespace {

// GDB's own signal numbers (include/gdb/signals.def), which stop replies carry.
constexpr int kSigInt = 2, kSigIll = 4, kSigTrap = 5, kSigAbrt = 6, kSigBus = 10, kSigSegv = 11, kSigSys = 12,
              kSigAlrm = 14;
constexpr uint32_t kMaxPacket = 0x4000;  // what we tell GDB in qSupported (PacketSize)

int fault_signal(const core::DebugStop& why) {
    using core::FaultKind;
    switch (why.fault) {
        case FaultKind::Panic: return kSigAbrt;
        case FaultKind::Watchdog:
        case FaultKind::BootTimeout: return kSigAlrm;
        case FaultKind::DoubleFault: return kSigSegv;
        case FaultKind::UnhandledTrap: break;
    }
    switch (core::TrapCause(why.mcause)) {
        case core::TrapCause::IllegalInstruction: return kSigIll;
        case core::TrapCause::Breakpoint: return kSigTrap;
        case core::TrapCause::EcallM: return kSigSys;
        case core::TrapCause::InstructionMisaligned:
        case core::TrapCause::LoadMisaligned:
        case core::TrapCause::StoreMisaligned: return kSigBus;
        default: return kSigSegv;
    }
}

std::string hex8(int v) {
    char b[4];
    std::snprintf(b, sizeof b, "%02x", v & 0xff);
    return b;
}
std::string hexnum(uint32_t v) {
    char b[12];
    std::snprintf(b, sizeof b, "%x", v);
    return b;
}
bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
// A one-letter reply and its text. (Appending, not "X" + text: GCC 12's -Wrestrict
// misfires on operator+ with a literal on the left.)
std::string reply(char letter, std::string_view rest) {
    std::string out(1, letter);
    out.append(rest);
    return out;
}

// "addr,length" (both hex) at the start of `args`; `rest` gets what follows.
bool parse_addr_len(std::string_view args, uint32_t& addr, uint32_t& len, std::string_view* rest = nullptr) {
    size_t comma = args.find(',');
    if (comma == std::string_view::npos) return false;
    size_t end = args.find_first_of(":;", comma);
    std::string_view len_text = args.substr(comma + 1, end == std::string_view::npos ? end : end - comma - 1);
    if (rest) *rest = end == std::string_view::npos ? std::string_view{} : args.substr(end + 1);
    return parse_hex_u32(args.substr(0, comma), addr) && parse_hex_u32(len_text, len);
}

}  // namespace

GdbServer::GdbServer(nic::EmbeddedNic& nic, uint16_t port) : nic_(nic), cpu_(nic.cpu()) {
    if (cpu_.debugger())
        throw GdbServerError(port, "gdb server: node " + std::to_string(nic.node_id()) +
                                       " already has a debugger attached (close its gdb server first)");
    listener_ = std::make_unique<RspListener>(port);
    last_stop_.kind = core::DebugStop::Kind::Interrupt;
    // Attached from the start (with no breakpoints this costs the core one test per burst),
    // so a debugger that connects during a run is noticed by the running core.
    cpu_.attach_debugger(this);
}

GdbServer::~GdbServer() { close(); }

void GdbServer::close() {
    if (cpu_.debugger() == this) cpu_.attach_debugger(nullptr);
    conn_.reset();
    listener_.reset();
}

// ---------------------------------------------------------------- connection

bool GdbServer::accept_now(int timeout_ms) {
    if (!listener_) return false;
    std::optional<int> fd = listener_->accept(timeout_ms);
    if (!fd) return false;
    conn_ = std::make_unique<RspConnection>(*fd);
    reader_ = PacketReader{};
    ack_mode_ = true;
    running_ = interrupt_ = false;
    // GDB asks `?` first; a fresh attach is a plain SIGTRAP stop where the core is.
    last_stop_ = core::DebugStop{core::DebugStop::Kind::Step, cpu_.pc()};
    return true;
}

void GdbServer::end_session() {
    conn_.reset();
    running_ = false;
    ++sessions_ended_;
    // Clear the debugger's breakpoints and watchpoints but stay attached, so the next
    // debugger to connect is noticed.
    if (cpu_.debugger() == this) {
        cpu_.attach_debugger(nullptr);
        cpu_.attach_debugger(this);
    }
}

void GdbServer::pump(int timeout_ms) {
    std::string bytes = conn_->receive(timeout_ms);
    if (!bytes.empty()) reader_.feed(bytes);
}

void GdbServer::send_packet(std::string_view payload) {
    last_sent_ = rsp_frame(payload);
    conn_->send(last_sent_);
}

bool GdbServer::wait_for_attach(int timeout_ms) {
    if (!listener_) throw GdbServerError(0, "gdb server: closed; start a new one to attach gdb");
    if (!connected() && !accept_now(timeout_ms)) return false;
    cpu_.debug_resume(serve());
    return true;
}

void GdbServer::poll_idle() {
    if (!connected()) {
        if (accept_now(0)) cpu_.debug_resume(serve());
        return;
    }
    if (poll()) cpu_.debug_resume(stopped(core::DebugStop{core::DebugStop::Kind::Interrupt, cpu_.pc()}));
}

bool GdbServer::poll() {
    if (!connected()) {
        if (conn_) end_session();  // the debugger went away while the core ran: it runs on
        return accept_now(0);
    }
    pump(0);
    if (!conn_->open()) {
        end_session();
        return false;
    }
    while (auto e = reader_.next())
        if (e->kind == RspEvent::Kind::Interrupt) interrupt_ = true;  // all-stop GDB sends nothing else meanwhile
    bool stop = interrupt_;
    interrupt_ = false;
    return stop;
}

// ---------------------------------------------------------------- stops

core::Resume GdbServer::stopped(const core::DebugStop& why) {
    if (!connected()) {
        if (conn_) end_session();
        return core::Resume::Continue;
    }
    last_stop_ = why;
    if (why.kind == core::DebugStop::Kind::Exited) {
        // The firmware halted: GDB learns the process exited, and the session ends.
        if (running_) send_packet(reply('W', hex8(int(why.exit_code))));
        end_session();
        return core::Resume::Continue;
    }
    if (running_) send_packet(stop_reply(why));
    running_ = false;
    return serve();
}

std::string GdbServer::stop_reply(const core::DebugStop& why) const {
    using K = core::DebugStop::Kind;
    switch (why.kind) {
        case K::Breakpoint: return reply('T', hex8(kSigTrap) + "thread:1;swbreak:;");
        case K::Step: return reply('T', hex8(kSigTrap) + "thread:1;");
        case K::Watch: {
            const char* kind = why.watch_kind == core::WatchKind::Write  ? "watch"
                               : why.watch_kind == core::WatchKind::Read ? "rwatch"
                                                                         : "awatch";
            return reply('T', hex8(kSigTrap) + "thread:1;" + kind + ":" + hexnum(why.watch_address) + ";");
        }
        case K::Interrupt: return reply('T', hex8(kSigInt) + "thread:1;");
        case K::Fault: return reply('T', hex8(fault_signal(why)) + "thread:1;");
        case K::Exited: return reply('W', hex8(int(why.exit_code)));
    }
    return "S05";
}

core::Resume GdbServer::serve() {
    while (connected()) {
        std::optional<RspEvent> e = reader_.next();
        if (!e) {
            pump(-1);
            continue;
        }
        switch (e->kind) {
            case RspEvent::Kind::Ack:
            case RspEvent::Kind::Interrupt: continue;  // already stopped
            case RspEvent::Kind::Nack:
                if (ack_mode_) conn_->send(last_sent_);
                continue;
            case RspEvent::Kind::BadChecksum:
                if (ack_mode_) conn_->send("-");
                continue;
            case RspEvent::Kind::Packet: break;
        }
        if (ack_mode_) conn_->send("+");
        Action action = Action::Stay;
        std::string answer = handle_packet(e->payload, action);
        if (action == Action::Continue || action == Action::Step) {
            if (last_stop_.kind == core::DebugStop::Kind::Fault) {
                // A faulted core does not run again: tell GDB the program died of it.
                send_packet(reply('X', hex8(fault_signal(last_stop_))));
                end_session();
                return core::Resume::Continue;
            }
            running_ = true;
            return action == Action::Step ? core::Resume::Step : core::Resume::Continue;
        }
        if (action == Action::Detach) {
            if (!answer.empty() || e->payload[0] == 'D') send_packet(answer);
            end_session();
            return core::Resume::Continue;
        }
        send_packet(answer);
        if (e->payload == "QStartNoAckMode") ack_mode_ = false;  // from the next packet on
    }
    if (conn_) end_session();  // the debugger went away: the firmware runs on
    return core::Resume::Continue;
}

// ---------------------------------------------------------------- packets

std::string GdbServer::handle_packet(const std::string& packet, Action& action) {
    action = Action::Stay;
    if (packet.empty()) return {};
    std::string_view p = packet;
    std::string_view args = p.substr(1);
    switch (p[0]) {
        case '?': return stop_reply(last_stop_);
        case 'g': return read_registers();
        case 'G': return write_registers(args) ? "OK" : "E01";
        case 'p': {
            uint32_t n, v;
            if (!parse_hex_u32(args, n) || !read_register(n, v)) return "E01";
            return to_hex_le32(v);
        }
        case 'P': {
            size_t eq = args.find('=');
            uint32_t n;
            std::vector<uint8_t> b;
            if (eq == std::string_view::npos || !parse_hex_u32(args.substr(0, eq), n) ||
                !from_hex(args.substr(eq + 1), b) || b.size() != 4)
                return "E01";
            uint32_t v = uint32_t(b[0]) | uint32_t(b[1]) << 8 | uint32_t(b[2]) << 16 | uint32_t(b[3]) << 24;
            return write_register(n, v) ? "OK" : "E01";
        }
        case 'm': return read_memory(args);
        case 'M': return write_memory(args, false);
        case 'X': return write_memory(args, true);
        case 'Z': return point(args, true);
        case 'z': return point(args, false);
        case 'c':
        case 'C':
        case 's':
        case 'S': {
            // An address to resume at (c ADDR / s ADDR; C SIG;ADDR). Signals are not delivered:
            // the core has no signals, only traps.
            std::string_view a = (p[0] == 'C' || p[0] == 'S') ? (args.find(';') == std::string_view::npos
                                                                      ? std::string_view{}
                                                                      : args.substr(args.find(';') + 1))
                                                               : args;
            uint32_t addr;
            if (!a.empty() && parse_hex_u32(a, addr)) cpu_.set_pc(addr);
            action = (p[0] == 's' || p[0] == 'S') ? Action::Step : Action::Continue;
            return {};
        }
        case 'D': action = Action::Detach; return "OK";
        case 'k': action = Action::Detach; return {};  // a NIC cannot be killed: kill detaches
        case 'H':
        case 'T': return "OK";  // one thread, always alive
        case 'v':
            if (p == "vCont?") return "vCont;c;C;s;S";
            if (starts_with(p, "vCont;")) {
                // All-stop with one thread: the first action decides (GDB sends e.g. "vCont;s:1;c").
                char a = p.size() > 6 ? p[6] : 'c';
                if (a == 's' || a == 'S') action = Action::Step;
                else if (a == 'c' || a == 'C') action = Action::Continue;
                else return "E01";
                return {};
            }
            if (starts_with(p, "vKill")) {
                action = Action::Detach;
                return "OK";
            }
            return {};
        case 'q':
            if (starts_with(p, "qSupported"))
                return std::string("PacketSize=") + hexnum(kMaxPacket) +
                       ";qXfer:features:read+;QStartNoAckMode+;swbreak+;hwbreak+;vContSupported+";
            if (starts_with(p, "qXfer:features:read:")) return xfer_features(p.substr(20));
            if (p == "qAttached") return "1";  // attached to running hardware: quitting GDB detaches
            if (p == "qC") return "QC1";
            if (p == "qfThreadInfo") return "m1";
            if (p == "qsThreadInfo") return "l";
            if (starts_with(p, "qSymbol")) return "OK";
            if (starts_with(p, "qRcmd,")) return monitor(p.substr(6));
            return {};
        case 'Q':
            if (p == "QStartNoAckMode") return "OK";
            return {};
        default: return {};  // unsupported: the empty reply
    }
}

std::string GdbServer::xfer_features(std::string_view args) const {
    // "target.xml:OFFSET,LENGTH"
    size_t colon = args.find(':');
    uint32_t off, len;
    if (colon == std::string_view::npos || args.substr(0, colon) != "target.xml") return "E00";
    if (!parse_addr_len(args.substr(colon + 1), off, len)) return "E01";
    const std::string& xml = riscv32_target_xml();
    if (off >= xml.size()) return "l";
    std::string chunk = xml.substr(off, std::min<size_t>(len, kMaxPacket / 2));
    return reply(off + chunk.size() >= xml.size() ? 'l' : 'm', rsp_escape(chunk));
}

// ---------------------------------------------------------------- registers

bool GdbServer::read_register(uint32_t regnum, uint32_t& value) const {
    if (regnum < 32) value = cpu_.reg(regnum);
    else if (regnum == kRegPc) value = cpu_.pc();
    else if (regnum >= kRegFirstCsr && regnum < kRegFirstCsr + 4096) return cpu_.read_csr(regnum - kRegFirstCsr, value);
    else return false;
    return true;
}

bool GdbServer::write_register(uint32_t regnum, uint32_t value) {
    if (regnum < 32) cpu_.set_reg(regnum, value);
    else if (regnum == kRegPc) cpu_.set_pc(value);
    else if (regnum >= kRegFirstCsr && regnum < kRegFirstCsr + 4096) return cpu_.write_csr(regnum - kRegFirstCsr, value);
    else return false;
    return true;
}

std::string GdbServer::read_registers() const {
    std::string out;
    for (uint32_t i = 0; i < kGeneralRegs; ++i) {
        uint32_t v = 0;
        read_register(i, v);
        out += to_hex_le32(v);
    }
    return out;
}

bool GdbServer::write_registers(std::string_view hex) {
    std::vector<uint8_t> b;
    if (!from_hex(hex, b) || b.size() < 4 * kGeneralRegs) return false;
    for (uint32_t i = 0; i < kGeneralRegs; ++i) {
        const uint8_t* w = &b[4 * i];
        write_register(i, uint32_t(w[0]) | uint32_t(w[1]) << 8 | uint32_t(w[2]) << 16 | uint32_t(w[3]) << 24);
    }
    return true;
}

// ---------------------------------------------------------------- memory

std::string GdbServer::read_memory(std::string_view args) const {
    uint32_t addr, len;
    if (!parse_addr_len(args, addr, len)) return "E01";
    len = std::min(len, kMaxPacket / 2 - 8);
    // SRAM only (either view): device registers have side effects a debugger must not
    // trigger. A read running off the end of SRAM returns the part inside it.
    const auto& sram = nic_.config().sram;
    uint32_t inside = 0;
    for (uint32_t base : {sram.cached_base, sram.uncached_base}) {
        uint32_t off = addr - base;
        if (off < sram.size) inside = std::min(len, sram.size - off);
    }
    if (inside == 0) return len == 0 ? "" : "E01";
    std::vector<uint8_t> bytes(inside);
    nic_.read_sram(addr, bytes);
    return to_hex(bytes.data(), bytes.size());
}

std::string GdbServer::write_memory(std::string_view args, bool binary) {
    uint32_t addr, len;
    std::string_view data;
    if (!parse_addr_len(args, addr, len, &data)) return "E01";
    std::vector<uint8_t> bytes;
    if (binary) bytes.assign(data.begin(), data.end());  // the reader already unescaped it
    else if (!from_hex(data, bytes)) return "E01";
    if (bytes.size() != len) return "E01";
    if (len == 0) return "OK";  // GDB probes X support this way
    try {
        nic_.write_sram(addr, bytes);  // also re-arms decoded instructions there
    } catch (const std::out_of_range&) {
        return "E01";
    }
    return "OK";
}

std::string GdbServer::point(std::string_view args, bool insert) {
    // "TYPE,ADDR,KIND": 0 software and 1 hardware breakpoint, 2 write, 3 read, 4 access watchpoint.
    if (args.size() < 2 || args[1] != ',') return "E01";
    uint32_t addr, len;
    if (!parse_addr_len(args.substr(2), addr, len)) return "E01";
    switch (args[0]) {
        case '0':
        case '1': return cpu_.set_breakpoint(addr, insert) ? "OK" : "E01";
        case '2': return cpu_.set_watchpoint(addr, len, core::WatchKind::Write, insert) ? "OK" : "E01";
        case '3': return cpu_.set_watchpoint(addr, len, core::WatchKind::Read, insert) ? "OK" : "E01";
        case '4': return cpu_.set_watchpoint(addr, len, core::WatchKind::Access, insert) ? "OK" : "E01";
        default: return {};
    }
}

std::string GdbServer::monitor(std::string_view hex_command) {
    std::vector<uint8_t> b;
    if (!from_hex(hex_command, b)) return "E01";
    std::string cmd(b.begin(), b.end());
    std::string text;
    char line[256];
    if (cmd == "time") {
        // Global time is the cluster's; the core runs ahead of it up to the next event.
        std::snprintf(line, sizeof line,
                      "global time %.6f us (%lld ps)\nnode %u core: local time %.6f us, cycle %llu, instret %llu\n",
                      nic_.kernel().now().as_us(), (long long)nic_.kernel().now().ps(), nic_.node_id(),
                      cpu_.local_time().as_us(), (unsigned long long)cpu_.cycles(),
                      (unsigned long long)cpu_.instret());
        text = line;
    } else if (cmd == "help" || cmd.empty()) {
        text = "monitor time: global simulated time and this core's local time, cycles and instret\n";
    } else {
        text = "unknown monitor command '" + cmd + "' (try: monitor help)\n";
    }
    // Console output travels in O packets before the final reply.
    send_packet(reply('O', to_hex(reinterpret_cast<const uint8_t*>(text.data()), text.size())));
    return "OK";
}

}  // namespace niclab::debug
