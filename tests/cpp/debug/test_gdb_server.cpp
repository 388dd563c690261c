// The stub against a socket: a client thread plays GDB while the test thread runs the
// simulation the way `niclab gdb` does (wait for the debugger, then run in slices).
#include <atomic>
#include <functional>
#include <thread>

#include "gdb_client.hpp"
#include "niclab/debug/gdb_server.hpp"
#include "niclab/debug/target_description.hpp"
#include "nic_test_support.hpp"

namespace niclab::test {
namespace {

using debug::GdbServer;

// Runs `client` against a GDB server on node 0 of `sys` while the simulation runs.
void with_gdb(system::System& sys, GdbServer& server, const std::function<void(RspClient&)>& client) {
    std::atomic<bool> done{false};
    std::thread t([&] {
        RspClient c(server.port());
        EXPECT_TRUE(c.ok());
        client(c);
        done = true;
    });
    ASSERT_TRUE(server.wait_for_attach(20000));
    for (int slices = 0; !done && slices < 100000; ++slices) {
        sys.run_for(Time::us(20));
        server.poll_idle();
    }
    t.join();
}

// Sends `monitor CMD`; returns the text of its O packets.
std::string run_monitor(RspClient& c, const std::string& cmd) {
    std::string text;
    std::string reply = c.call("qRcmd," + debug::to_hex(reinterpret_cast<const uint8_t*>(cmd.data()), cmd.size()));
    while (!reply.empty() && reply[0] == 'O' && reply != "OK") {
        std::vector<uint8_t> b;
        debug::from_hex(reply.substr(1), b);
        text.append(b.begin(), b.end());
        reply = c.next_packet();
    }
    EXPECT_EQ(reply, "OK");
    return text;
}

TEST(GdbServer, BreakpointStepWatchpointAndDetach) {
    auto sys = make_system({{"nodes", 1}, {"firmware", "gdb_demo"}});
    auto& nic = sys->nic(0);
    const uint32_t tick = symbol(nic, "tick"), magic = symbol(nic, "gdb_magic"), ticks = symbol(nic, "gdb_ticks");
    GdbServer server(nic, 0);
    ASSERT_NE(server.port(), 0);
    std::map<std::string, std::string> got;
    with_gdb(*sys, server, [&](RspClient& c) {
        got["supported"] = c.call("qSupported:multiprocess+;swbreak+;hwbreak+;xmlRegisters=i386");
        got["noack"] = c.call("QStartNoAckMode");
        got["xml"] = c.call("qXfer:features:read:target.xml:0,1fff");
        got["attached"] = c.call("qAttached");
        got["stop0"] = c.call("?");
        got["magic"] = c.call("m" + hexn(magic) + ",4");
        got["outside"] = c.call("m10,4");
        got["mstatus"] = c.call("p" + hexn(debug::kRegFirstCsr + 0x300));
        got["badreg"] = c.call("p" + hexn(debug::kRegFirstCsr + 0x7c0));
        got["z0"] = c.call("Z0," + hexn(tick) + ",4");
        got["stop1"] = c.call("vCont;c");
        got["pc1"] = c.call("p20");
        got["ticks1"] = c.call("m" + hexn(ticks) + ",4");
        got["time1"] = run_monitor(c, "time");
        got["step"] = c.call("vCont;s:1");
        got["pc2"] = c.call("p20");
        got["time2"] = run_monitor(c, "time");
        got["rm0"] = c.call("z0," + hexn(tick) + ",4");
        got["z2"] = c.call("Z2," + hexn(ticks) + ",4");
        got["stop3"] = c.call("c");
        got["ticks3"] = c.call("m" + hexn(ticks) + ",4");
        got["rm2"] = c.call("z2," + hexn(ticks) + ",4");
        got["step4"] = c.call("s");
        got["ticks4"] = c.call("m" + hexn(ticks) + ",4");
        got["detach"] = c.call("D");
    });
    EXPECT_NE(got["supported"].find("PacketSize="), std::string::npos);
    EXPECT_NE(got["supported"].find("qXfer:features:read+"), std::string::npos);
    EXPECT_EQ(got["noack"], "OK");
    EXPECT_EQ(got["xml"][0], 'l');  // all of it in one reply
    EXPECT_NE(got["xml"].find("<architecture>riscv:rv32</architecture>"), std::string::npos);
    EXPECT_NE(got["xml"].find("org.gnu.gdb.riscv.csr"), std::string::npos);
    EXPECT_EQ(got["attached"], "1");
    EXPECT_EQ(got["stop0"].substr(0, 3), "T05");
    EXPECT_EQ(got["magic"], hex_le(0x5ea57a12));
    EXPECT_EQ(got["outside"], "E01");
    EXPECT_EQ(got["mstatus"].size(), 8u);
    EXPECT_EQ(got["badreg"], "E01");
    EXPECT_EQ(got["z0"], "OK");
    EXPECT_EQ(got["stop1"], "T05thread:1;swbreak:;");
    EXPECT_EQ(got["pc1"], hex_le(tick));
    EXPECT_EQ(got["ticks1"], hex_le(0));  // stopped before the first tick wrote anything
    EXPECT_EQ(got["step"], "T05thread:1;");
    EXPECT_EQ(got["pc2"], hex_le(tick + 4));
    // Halted, the cluster stood still: a step advanced the core, not global time.
    auto global = [](const std::string& t) { return t.substr(0, t.find('\n')); };
    EXPECT_EQ(global(got["time1"]), global(got["time2"]));
    EXPECT_NE(got["time1"], got["time2"]);  // the core's own cycle count moved
    EXPECT_EQ(got["rm0"], "OK");
    EXPECT_EQ(got["z2"], "OK");
    EXPECT_EQ(got["stop3"], "T05thread:1;watch:" + hexn(ticks) + ";");
    EXPECT_EQ(got["ticks3"], hex_le(0));  // stopped before the store
    EXPECT_EQ(got["rm2"], "OK");
    EXPECT_EQ(got["step4"], "T05thread:1;");
    EXPECT_EQ(got["ticks4"], hex_le(1));  // the store, stepped over
    EXPECT_EQ(got["detach"], "OK");
    EXPECT_EQ(server.sessions_ended(), 1u);
    // Detached, the firmware runs on.
    uint32_t before = nic.peek32(ticks);
    sys->run_for(Time::us(100));
    EXPECT_GT(nic.peek32(ticks), before);
}

TEST(GdbServer, CtrlCStopsARunningCoreAndLostConnectionResumesIt) {
    auto sys = make_system({{"nodes", 1}, {"firmware", "gdb_demo"}});
    auto& nic = sys->nic(0);
    GdbServer server(nic, 0);
    std::string stop, regs;
    with_gdb(*sys, server, [&](RspClient& c) {
        c.call("?");
        c.send_raw(debug::rsp_frame("c"));
        c.send_raw("\x03");
        stop = c.next_packet();
        regs = c.call("g");
    });  // the client closes without detaching
    EXPECT_EQ(stop, "T02thread:1;");
    EXPECT_EQ(regs.size(), 8u * debug::kGeneralRegs);
    uint32_t ticks = symbol(nic, "gdb_ticks"), before = nic.peek32(ticks);
    sys->run_for(Time::us(100));
    server.poll_idle();
    EXPECT_EQ(server.sessions_ended(), 1u);
    EXPECT_GT(nic.peek32(ticks), before);
}

TEST(GdbServer, AFirmwareFaultIsASignalThenTheProgramDies) {
    auto sys = make_system({{"nodes", 1}, {"firmware", "fault_illegal"}});
    GdbServer server(sys->nic(0), 0);
    std::string stop, pc, after;
    with_gdb(*sys, server, [&](RspClient& c) {
        c.call("?");
        stop = c.call("c");
        pc = c.call("p20");
        after = c.call("c");
    });
    EXPECT_EQ(stop, "T04thread:1;");  // SIGILL
    EXPECT_EQ(pc, hex_le(symbol(sys->nic(0), "do_illegal_instruction")));
    EXPECT_EQ(after, "X04");
    EXPECT_TRUE(sys->faulted(0));  // and the NIC is faulted as without a debugger
}

TEST(GdbServer, APortInUseOrASecondServerIsATypedErrorNamingIt) {
    auto sys = make_system({{"nodes", 2}, {"firmware", "gdb_demo"}});
    GdbServer first(sys->nic(0), 0);
    EXPECT_THROW(GdbServer(sys->nic(0), 0), debug::GdbServerError);  // one debugger per core
    try {
        GdbServer second(sys->nic(1), first.port());
        FAIL() << "a second server on port " << first.port() << " started";
    } catch (const debug::GdbServerError& e) {
        EXPECT_EQ(e.port(), first.port());
        EXPECT_NE(std::string(e.what()).find(std::to_string(first.port())), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace niclab::test
