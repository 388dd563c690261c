// How far the SeaStar system scales: a 3-D halo exchange of Portals puts (the Ember
// Halo3D pattern: every node puts one message to each of its up to six neighbours in
// the mesh and waits for theirs, `iterations` times) on 3-D meshes of growing size, the
// C Portals firmware on every NIC. Each size runs in a child process of its own, so its
// peak resident memory is its own; the parent prints one line per size:
//
//   nodes  shape  build s  setup s  halo s  peak RSS MB  MB/node  events/s  messages/s  sim us  events/msg  runs/msg  instr/msg  held n/nb/e %  private %  maps
//
// `build` is constructing the system (loading and booting the firmware on every NIC),
// `setup` the Portals set-up of every process, `halo` the timed exchange. events/s and
// messages/s are over the halo's wall time; "sim us" is the halo's simulated time, to the
// picosecond; events/msg and runs/msg are the kernel's events and the runs the NIC cores
// were cut into (sim::Kernel::runnable_runs) per message of the halo, and instr/msg the
// firmware instructions all NICs retired per message. "held n/nb/e %" is what held the
// halo's runs, in percent (sim::Kernel::Hold): their own node's next event (or one of no
// node), their neighbours, the earliest time anywhere plus two lookaheads. "private %" is
// the share of the NIC cores' runs that made no device or uncached SRAM access and did
// not go to sleep (core::Cpu::private_runs): without running ahead (--no-run-ahead), runs
// that ended only because the horizon did; with it (SystemSpec::run_ahead), mostly runs
// that went on past the horizon to a shared access and left it to the next. "maps" is the
// memory mappings the child held at the end of the halo, against the kernel's limit of
// vm.max_map_count (its host processes' stacks take a few, host/stack_arena.hpp). A size that
// exceeds --max-gb (an address space limit on the child) reports "out of memory" instead
// of taking the machine down. A halo longer than ten seconds says how far it is on stderr
// (node 0's iterations), every ten seconds.
//
//   bench_scale [--nodes 64,512,2048] [--iterations 10] [--size 1024] [--red-storm] [--max-gb 16]
//               [--no-lookahead] [--credit-events] [--no-send-ahead] [--no-lanes] [--no-huge-pages]
//               [--routing-table] [--no-run-ahead]
//
// --red-storm adds Red Storm's 27 x 16 x 24 = 10,368 nodes (a torus in z), which is long;
// above 2,048 nodes the NICs run `portals_redstorm` (go-back-N's peer table to 10,368).
// --no-lookahead stops every core at every event (SystemSpec::lookahead false, the older
// kernel), to compare; --credit-events makes an event of every credit a router gets back
// (SystemSpec::credit_events); --no-send-ahead has a NIC's packet on a busy cable wait
// for the cable's wake-up (SystemSpec::send_ahead false); --no-lanes sends every event
// through the kernel's heap (SystemSpec::lanes false); --routing-table has the routers look
// their ports up in a routers x nodes table instead of computing them ("routing": "table",
// net::MeshRouting); --no-run-ahead stops every NIC core at its horizon (SystemSpec::
// run_ahead false). The halo's simulated times are the same either way ("sim us").
//
// Huge pages: a large system's state is gigabytes of small objects in malloc's memory,
// and a message touches a few lines of many of them; with 4 KB pages most of those
// touches missed the host's TLB too. glibc backs malloc's memory with transparent huge
// pages when its tunable asks (glibc.malloc.hugetlb=1, glibc 2.35 on; the kernel's
// transparent_hugepage set to madvise or always), and it reads its tunables only at
// start-up, so bench_scale runs itself again with the tunable added to GLIBC_TUNABLES
// unless --no-huge-pages (or the variable already sets it). The header line says which.
// Red Storm's halo took about 0.81x the time with them, a 2,048-node one the same or less
// (README), and the peak memory is the same; a build takes longer (faulting memory in as
// huge pages costs system time), which the halo's figures leave out.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "niclab/host/process.hpp"
#include "niclab/sim/host_resources.hpp"
#include "niclab/msg/portals/ni.hpp"
#include "niclab/net/topology.hpp"
#include "niclab/system/system.hpp"
#include "niclab/systems/seastar/seastar.hpp"

using namespace niclab;
using namespace niclab::portals;

namespace {

struct Shape {
    uint32_t x, y, z;
    bool z_wrap = false;
    uint32_t nodes() const { return x * y * z; }
};

struct Options {
    std::vector<Shape> shapes;
    uint32_t iterations = 10;
    uint32_t size = 1024;
    double max_gb = 16;
    bool lookahead = true;
    bool credit_events = false;
    bool send_ahead = true;
    bool lanes = true;
    bool huge_pages = true;
    bool routing_table = false;
    bool run_ahead = true;
};

// The mesh's neighbours of `node` (x fastest, as the topology numbers its terminals).
std::vector<uint32_t> neighbours(const Shape& s, uint32_t node) {
    const uint32_t x = node % s.x, y = node / s.x % s.y, z = node / (s.x * s.y);
    std::vector<uint32_t> out;
    auto at = [&](uint32_t a, uint32_t b, uint32_t c) { out.push_back(a + s.x * (b + s.y * c)); };
    if (x > 0) at(x - 1, y, z);
    if (x + 1 < s.x) at(x + 1, y, z);
    if (y > 0) at(x, y - 1, z);
    if (y + 1 < s.y) at(x, y + 1, z);
    if (z > 0 || (s.z_wrap && s.z > 2)) at(x, y, (z + s.z - 1) % s.z);
    if (z + 1 < s.z || (s.z_wrap && s.z > 2)) at(x, y, (z + 1) % s.z);
    return out;
}

struct Figures {
    double build_s = 0, setup_s = 0, halo_s = 0, sim_us = 0;
    uint64_t events = 0, messages = 0, runs = 0, instructions = 0;
    // Of the halo's runs, those held by their node's next event (or one of no node), by
    // their neighbours, and by the earliest time plus two lookaheads (sim::Kernel::Hold).
    uint64_t held_node = 0, held_neighbours = 0, held_earliest = 0;
    // The NIC cores' runs in the halo, and those of them that made no shared access
    // (core::Cpu::private_runs).
    uint64_t core_runs = 0, private_runs = 0;
    long mappings = 0;  // memory mappings held at the end of the halo
    bool ok = false;
    char error[200] = {};
};

double seconds_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// A long halo (Red Storm's takes most of an hour) says how far it is, on stderr, at most
// every ten seconds of wall time: node 0's iterations, which its host process reports as it
// finishes each. Printing changes nothing in the simulation; short halos print nothing.
struct Progress {
    uint32_t nodes = 0, iterations = 0;
    std::chrono::steady_clock::time_point began, last;
    void iteration(uint32_t done, double sim_us) {
        const auto now = std::chrono::steady_clock::now();
        if (now - last < std::chrono::seconds(10)) return;
        last = now;
        std::fprintf(stderr, "bench_scale: %u nodes, node 0 finished iteration %u of %u: %.3f us simulated, %.0f s into the halo\n",
                     nodes, done, iterations, sim_us, std::chrono::duration<double>(now - began).count());
    }
};

// One size, in this (child) process.
Figures run(const Shape& shape, const Options& o) {
    Figures f;
    Progress progress{shape.nodes(), o.iterations, {}, {}};
    auto t = std::chrono::steady_clock::now();
    system::SystemSpec spec;
    spec.nodes = shape.nodes();
    spec.lookahead = o.lookahead;
    spec.credit_events = o.credit_events;
    spec.send_ahead = o.send_ahead;
    spec.lanes = o.lanes;
    spec.run_ahead = o.run_ahead;
    // The SeaStar's own image for this size (portals_redstorm above 2,048 nodes).
    const std::string image = seastar::model().default_firmware(spec.nodes);
    spec.firmware = {std::string(NICLAB_FIRMWARE_DIR) + "/portals/" + image + ".elf"};
    spec.topology = {{"kind", shape.z_wrap ? "torus" : "mesh"},
                     {"dims", {shape.x, shape.y, shape.z}},
                     {"wrap", {false, false, shape.z_wrap}}};
    if (o.routing_table) spec.topology["routing"] = "table";
    system::System sys(spec);
    std::vector<std::unique_ptr<Ni>> nis;
    for (uint32_t n = 0; n < spec.nodes; ++n) nis.push_back(std::make_unique<Ni>(seastar::portals(sys, n), 0));
    f.build_s = seconds_since(t);

    // Every node: set up, meet at a common start time, then the timed iterations. The
    // System has booted every NIC by now (its loader boots them one after another).
    const Time start = sys.now() + Time::us(200);
    uint32_t done = 0;
    std::vector<std::unique_ptr<host::Process>> procs;
    for (uint32_t n = 0; n < spec.nodes; ++n) {
        procs.push_back(std::make_unique<host::Process>(sys.host_cpu(n), "halo", [&, n](host::ProcessContext& ctx) {
            Ni& ni = *nis[n];
            const auto peers = neighbours(shape, n);
            auto eq = ni.eq_alloc(ctx, 64);
            auto me = ni.me_attach(ctx, 0, {PTL_NID_ANY, PTL_PID_ANY}, 1, 0, PTL_RETAIN, PTL_INS_AFTER);
            ni.md_attach(ctx, me, ptl_md(0x200000, o.size, PTL_MD_OP_PUT | PTL_MD_MANAGE_REMOTE | PTL_MD_EVENT_START_DISABLE, eq),
                         PTL_RETAIN);
            auto out = ni.md_bind(ctx, ptl_md(0x100000, o.size, 0, PTL_EQ_NONE), PTL_RETAIN);
            if (ctx.now() < start) ctx.sleep_for(start - ctx.now());
            for (uint32_t i = 0; i < o.iterations; ++i) {
                for (uint32_t p : peers) ni.put(ctx, out, PTL_NOACK_REQ, {p, 0}, 0, 0, 1, 0);
                for (size_t got = 0; got < peers.size();)
                    if (ni.eq_wait(ctx, eq).type == PTL_EVENT_PUT_END) ++got;
                if (n == 0) progress.iteration(i + 1, (ctx.now() - start).as_us());
            }
            ++done;
        }));
    }
    t = std::chrono::steady_clock::now();
    sys.run_until(start);
    f.setup_s = seconds_since(t);
    const uint64_t events0 = sys.kernel().events_fired();
    const uint64_t runs0 = sys.kernel().runnable_runs();
    using Hold = sim::Kernel::Hold;
    const auto held = [&](std::initializer_list<Hold> holds) {
        uint64_t sum = 0;
        for (Hold h : holds) sum += sys.kernel().runs_held_by(h);
        return sum;
    };
    const uint64_t node0 = held({Hold::Node, Hold::NoNode}), neighbours0 = held({Hold::Neighbours}),
                   earliest0 = held({Hold::Earliest});
    // A figure of the NIC cores' (a core::Cpu member), summed over every NIC.
    const auto over_cores = [&](uint64_t (core::Cpu::*figure)() const) {
        uint64_t sum = 0;
        for (uint32_t n = 0; n < spec.nodes; ++n) sum += (sys.nic(n).cpu().*figure)();
        return sum;
    };
    const uint64_t instructions0 = over_cores(&core::Cpu::instret), core_runs0 = over_cores(&core::Cpu::runs),
                   private_runs0 = over_cores(&core::Cpu::private_runs);
    t = std::chrono::steady_clock::now();
    progress.began = progress.last = t;
    sys.run_until(Time::max());
    f.halo_s = seconds_since(t);
    f.events = sys.kernel().events_fired() - events0;
    f.runs = sys.kernel().runnable_runs() - runs0;
    f.held_node = held({Hold::Node, Hold::NoNode}) - node0;
    f.held_neighbours = held({Hold::Neighbours}) - neighbours0;
    f.held_earliest = held({Hold::Earliest}) - earliest0;
    f.instructions = over_cores(&core::Cpu::instret) - instructions0;
    f.core_runs = over_cores(&core::Cpu::runs) - core_runs0;
    f.private_runs = over_cores(&core::Cpu::private_runs) - private_runs0;
    for (uint32_t n = 0; n < spec.nodes; ++n) f.messages += uint64_t(o.iterations) * neighbours(shape, n).size();
    f.sim_us = (sys.now() - start).as_us();
    f.mappings = sim::mappings_held();
    for (const auto& p : procs)
        if (p->failed()) {
            std::snprintf(f.error, sizeof f.error, "%s", p->error_message().c_str());
            return f;
        }
    for (uint32_t n = 0; n < spec.nodes; ++n)
        if (sys.faulted(n)) {
            std::snprintf(f.error, sizeof f.error, "node %u: %s", n, sys.fault_report(n).c_str());
            return f;
        }
    if (done != spec.nodes) {
        std::snprintf(f.error, sizeof f.error, "only %u of %u nodes finished", done, spec.nodes);
        return f;
    }
    f.ok = true;
    return f;
}

std::vector<uint32_t> parse_list(const char* s) {
    std::vector<uint32_t> v;
    for (char* end = nullptr;; s = end + 1) {
        v.push_back(uint32_t(std::strtoul(s, &end, 10)));
        if (*end != ',') break;
    }
    return v;
}

Options parse(int argc, char** argv) {
    Options o;
    std::vector<uint32_t> nodes = {64, 512, 2048};
    bool red_storm = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const bool has_value = i + 1 < argc;
        if (a == "--nodes" && has_value) nodes = parse_list(argv[++i]);
        else if (a == "--iterations" && has_value) o.iterations = uint32_t(std::atoi(argv[++i]));
        else if (a == "--size" && has_value) o.size = uint32_t(std::atoi(argv[++i]));
        else if (a == "--max-gb" && has_value) o.max_gb = std::atof(argv[++i]);
        else if (a == "--red-storm") red_storm = true;
        else if (a == "--no-lookahead") o.lookahead = false;
        else if (a == "--credit-events") o.credit_events = true;
        else if (a == "--no-send-ahead") o.send_ahead = false;
        else if (a == "--no-lanes") o.lanes = false;
        else if (a == "--no-huge-pages") o.huge_pages = false;
        else if (a == "--routing-table") o.routing_table = true;
        else if (a == "--no-run-ahead") o.run_ahead = false;
        else {
            std::fprintf(stderr, "bench_scale: unknown argument '%s'\nusage: bench_scale [--nodes 64,512,2048] "
                                 "[--iterations 10] [--size 1024] [--red-storm] [--max-gb 16] [--no-lookahead] [--credit-events] [--no-send-ahead] [--no-lanes] "
                                 "[--no-huge-pages] [--routing-table] [--no-run-ahead]\n",
                         a.c_str());
            std::exit(2);
        }
    }
    for (uint32_t n : nodes) {  // the SeaStar's own mesh for n nodes (halo3d's grid)
        const auto d = net::Mesh3D::cube_like(n);
        o.shapes.push_back({d[0], d[1], d[2]});
    }
    if (red_storm) o.shapes.push_back({27, 16, 24, true});  // seed 001 §2: Red Storm's 27 x 16 x 24, a torus in z
    return o;
}

// The glibc tunable that backs malloc's memory with transparent huge pages: the value
// GLIBC_TUNABLES gives it, or null if it gives none ("0" is the user saying no).
constexpr char kHugePages[] = "glibc.malloc.hugetlb=";
const char* huge_pages_value() {
    const char* t = std::getenv("GLIBC_TUNABLES");
    const char* at = t ? std::strstr(t, kHugePages) : nullptr;
    return at ? at + sizeof kHugePages - 1 : nullptr;
}

// Whether the kernel gives no transparent huge pages at all (then the tunable does nothing).
bool thp_never() {
    char mode[128] = {};
    std::FILE* f = std::fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
    if (!f) return true;
    const bool read = std::fgets(mode, sizeof mode, f) != nullptr;
    std::fclose(f);
    return !read || std::strstr(mode, "[never]");
}

// Runs this program again with the tunable added (see the top); returns only if it cannot.
void run_again_with_huge_pages(char** argv) {
    const char* t = std::getenv("GLIBC_TUNABLES");
    const std::string tunables = (t && *t ? std::string(t) + ":" : std::string()) + kHugePages + "1";
    setenv("GLIBC_TUNABLES", tunables.c_str(), 1);
    // By the name it was started as (a tool it runs under, such as valgrind, follows
    // that; /proc/self/exe would name the tool's own binary), else by its own file.
    execvp(argv[0], argv);
    execv("/proc/self/exe", argv);
    std::fprintf(stderr, "bench_scale: could not run again with huge pages (%s): going on without\n", std::strerror(errno));
}

}  // namespace

int main(int argc, char** argv) {
    const Options o = parse(argc, argv);
    if (o.huge_pages && !huge_pages_value()) run_again_with_huge_pages(argv);
    const char* huge_value = huge_pages_value();
    const bool huge = huge_value && *huge_value != '0';
    std::printf("3-D halo of %u-byte Portals puts, %u iterations, C Portals firmware on every SeaStar%s%s%s%s%s%s%s\n", o.size,
                o.iterations, o.lookahead ? "" : ", no kernel lookahead", o.credit_events ? ", an event per credit" : "",
                o.send_ahead ? "" : ", no sending ahead", o.lanes ? "" : ", no kernel lanes",
                o.routing_table ? ", routes from a table" : "", o.run_ahead ? "" : ", no running ahead",
                huge ? (thp_never() ? ", huge pages asked but the kernel's transparent_hugepage is never" : ", malloc on huge pages")
                     : ", malloc on 4 KB pages");
    std::printf("%8s %10s %8s %8s %8s %12s %8s %11s %11s %14s %10s %9s %10s %15s %9s %6s\n", "nodes", "shape", "build s", "setup s",
                "halo s", "peak RSS MB", "MB/node", "events/s", "messages/s", "sim us", "events/msg", "runs/msg", "instr/msg",
                "held n/nb/e %", "private %", "maps");
    for (const Shape& shape : o.shapes) {
        int fds[2];
        if (pipe(fds) != 0) return 1;
        const pid_t child = fork();
        if (child == 0) {
            close(fds[0]);
            const rlimit limit{rlim_t(o.max_gb * (1ull << 30)), rlim_t(o.max_gb * (1ull << 30))};
            setrlimit(RLIMIT_AS, &limit);
            Figures f;
            try {
                f = run(shape, o);
            } catch (const std::bad_alloc&) {
                std::snprintf(f.error, sizeof f.error, "out of memory (address space limited to %.0f GB by --max-gb)", o.max_gb);
            } catch (const std::exception& e) {
                std::snprintf(f.error, sizeof f.error, "%s", e.what());
            }
            (void)!write(fds[1], &f, sizeof f);
            _exit(0);
        }
        close(fds[1]);
        Figures f;
        const bool got = read(fds[0], &f, sizeof f) == ssize_t(sizeof f);
        close(fds[0]);
        int status = 0;
        rusage usage{};
        wait4(child, &status, 0, &usage);
        const double rss_mb = double(usage.ru_maxrss) / 1024.0;  // KB on Linux
        char name[32];
        std::snprintf(name, sizeof name, "%ux%ux%u", shape.x, shape.y, shape.z);
        if (!got || !f.ok) {
            std::printf("%8u %10s  failed: %s (peak RSS %.0f MB)\n", shape.nodes(), name,
                        got ? f.error : "the child died (killed or crashed)", rss_mb);
            continue;
        }
        const auto pct = [&](uint64_t n) { return f.runs ? 100.0 * double(n) / double(f.runs) : 0.0; };
        char held[32];
        std::snprintf(held, sizeof held, "%.0f/%.0f/%.0f", pct(f.held_node), pct(f.held_neighbours), pct(f.held_earliest));
        const double private_pct = f.core_runs ? 100.0 * double(f.private_runs) / double(f.core_runs) : 0.0;
        std::printf("%8u %10s %8.2f %8.2f %8.2f %12.0f %8.2f %11.3g %11.3g %14.6f %10.0f %9.0f %10.0f %15s %9.0f %6ld\n", shape.nodes(),
                    name, f.build_s, f.setup_s, f.halo_s, rss_mb, rss_mb / shape.nodes(), double(f.events) / f.halo_s,
                    double(f.messages) / f.halo_s, f.sim_us, double(f.events) / double(f.messages),
                    double(f.runs) / double(f.messages), double(f.instructions) / double(f.messages), held, private_pct,
                    f.mappings);
        std::fflush(stdout);
    }
    return 0;
}
