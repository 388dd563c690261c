// niclab-run: boot one simulated NIC with a firmware ELF, run it until it halts
// (or faults, or the time limit passes), print its console output on stdout and
// exit with the firmware's exit code. Used by the ISA oracle tests (the same tests
// run under qemu) and handy for quick experiments from a shell.
//
//   niclab-run FIRMWARE.elf [--preset NAME] [--max-us N] [--set key=value ...] [--stats]
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

#include "niclab/system/config_error.hpp"
#include "niclab/system/system.hpp"

using namespace niclab;

int main(int argc, char** argv) {
    if (argc < 2) {
        std::cerr << "usage: niclab-run FIRMWARE.elf [--preset NAME] [--max-us N] [--set key=value ...] [--stats]\n";
        return 2;
    }
    system::SystemSpec spec;
    std::string elf = argv[1];
    int64_t max_us = 100000;
    bool stats = false;
    for (int i = 2; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--preset" && i + 1 < argc) spec.preset = argv[++i];
        else if (a == "--max-us" && i + 1 < argc) max_us = std::atoll(argv[++i]);
        else if (a == "--stats") stats = true;
        else if (a == "--set" && i + 1 < argc) {
            std::string kv = argv[++i];
            auto eq = kv.find('=');
            if (eq == std::string::npos) { std::cerr << "--set wants key=value\n"; return 2; }
            spec.overrides[kv.substr(0, eq)] = std::atoll(kv.substr(eq + 1).c_str());
        } else { std::cerr << "unknown argument " << a << "\n"; return 2; }
    }
    try {
        system::System sys(spec);
        nic::EmbeddedNic& nic = sys.nic(0);
        nic.load_firmware(elf);
        sys.run_until(sys.now() + Time::us(max_us));
        std::cout << nic.console() << std::flush;
        if (stats) {
            const auto& cpu = nic.cpu();
            std::fprintf(stderr, "cycles %llu instret %llu stall %llu sim-time %.3f us icache %llu/%llu dcache %llu/%llu\n",
                         (unsigned long long)cpu.cycles(), (unsigned long long)cpu.instret(),
                         (unsigned long long)cpu.stall_cycles(), sys.now().as_us(),
                         (unsigned long long)cpu.icache().misses, (unsigned long long)cpu.icache().accesses,
                         (unsigned long long)cpu.dcache().misses, (unsigned long long)cpu.dcache().accesses);
        }
        if (auto f = nic.fault()) { std::cerr << "FirmwareFault: " << f->what() << "\n"; return 125; }
        if (!nic.halted()) { std::cerr << "firmware did not halt within " << max_us << " us\n"; return 124; }
        return int(nic.cpu().exit_code() & 0x7F);
    } catch (const niclab::Error& e) {
        std::cout << std::flush;
        std::cerr << e.what() << "\n";
        return 126;
    }
}
