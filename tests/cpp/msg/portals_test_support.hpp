#pragma once
// Shared by the Portals end-to-end tests: a system whose nodes run the C Portals
// firmware, with one generic-mode Portals interface (pid 0) per node, and helpers for
// the usual put/get set-ups. Every payload is a test pattern the tests compare byte by
// byte after the run.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "niclab/systems/seastar/seastar.hpp"
#include "niclab/host/process.hpp"
#include "niclab/msg/portals/ni.hpp"
#include "niclab/system/system.hpp"
#include "test_support.hpp"

namespace niclab::test::ptl {

using namespace niclab::portals;
using niclab::test::pattern;

inline std::string portals_firmware(const std::string& image = "portals") {
    return std::string(NICLAB_FIRMWARE_DIR) + "/portals/" + image + ".elf";
}

inline system::SystemSpec portals_spec(uint32_t nodes, nlohmann::json topology = nullptr,
                                       const std::string& image = "portals") {
    system::SystemSpec s;
    s.nodes = nodes;
    s.topology = std::move(topology);
    s.firmware = {portals_firmware(image)};
    return s;
}

struct Cluster {
    explicit Cluster(const system::SystemSpec& spec) : sys(spec) {
        for (size_t i = 0; i < sys.node_count(); ++i) ni.push_back(std::make_unique<Ni>(seastar::portals(sys, i), 0));
    }
    ~Cluster() {
        procs.clear();  // processes first, then the interfaces, then the system
        ni.clear();
    }
    // A host process on `node` running `body` with that node's interface.
    void spawn(size_t node, const std::string& name, std::function<void(host::ProcessContext&, Ni&)> body) {
        Ni& n = *ni[node];
        procs.push_back(std::make_unique<host::Process>(sys.host_cpu(node), name,
                                                        [&n, body](host::ProcessContext& ctx) { body(ctx, n); }));
    }
    // Runs to quiescence; every process must have finished without error.
    void run() {
        sys.run_until(Time::max());
        for (auto& p : procs) {
            p->rethrow_if_failed();
            EXPECT_TRUE(p->done()) << p->name() << " did not finish";
        }
    }
    system::System sys;
    std::vector<std::unique_ptr<Ni>> ni;
    std::vector<std::unique_ptr<host::Process>> procs;
};

inline ptl_md_t md(uint64_t start, uint64_t length, unsigned options, ptl_handle_eq_t eq, int threshold = PTL_MD_THRESH_INF) {
    return ptl_md(start, length, options, eq, threshold);
}

// Waits for the next event of `eq` and checks its kind.
inline ptl_event_t expect_event(host::ProcessContext& ctx, Ni& ni, ptl_handle_eq_t eq, ptl_event_kind_t kind) {
    ptl_event_t ev;
    EXPECT_EQ(ni.eq_wait(ctx, eq, ev), PTL_OK);
    EXPECT_EQ(ev.type, kind) << "got " << ptl_event_str(ev.type) << ", wanted " << ptl_event_str(kind);
    return ev;
}

inline bool bytes_equal(host::HostMemory& mem, uint64_t addr, const std::vector<uint8_t>& want) {
    std::vector<uint8_t> got(want.size());
    mem.read(addr, got);
    return got == want;
}

}  // namespace niclab::test::ptl
