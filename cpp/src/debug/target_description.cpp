#include "niclab/debug/target_description.hpp"

namespace niclab::debug {

namespace {
struct CsrName {
    const char* name;
    uint32_t number;
};
// The CSRs Cpu::read_csr implements (machine mode, counters, ids).
constexpr CsrName kCsrs[] = {
    {"mstatus", 0x300}, {"misa", 0x301},     {"mie", 0x304},      {"mtvec", 0x305},    {"mscratch", 0x340},
    {"mepc", 0x341},    {"mcause", 0x342},   {"mtval", 0x343},    {"mip", 0x344},      {"mcycle", 0xB00},
    {"minstret", 0xB02}, {"mcycleh", 0xB80}, {"minstreth", 0xB82}, {"cycle", 0xC00},   {"time", 0xC01},
    {"instret", 0xC02}, {"cycleh", 0xC80},   {"timeh", 0xC81},    {"instreth", 0xC82}, {"mvendorid", 0xF11},
    {"marchid", 0xF12}, {"mimpid", 0xF13},   {"mhartid", 0xF14},
};
constexpr const char* kGprNames[32] = {"zero", "ra", "sp", "gp", "tp",  "t0",  "t1", "t2", "fp", "s1", "a0",
                                       "a1",   "a2", "a3", "a4", "a5",  "a6",  "a7", "s2", "s3", "s4", "s5",
                                       "s6",   "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6"};

std::string build() {
    std::string x =
        "<?xml version=\"1.0\"?>\n<!DOCTYPE target SYSTEM \"gdb-target.dtd\">\n<target version=\"1.0\">\n"
        "<architecture>riscv:rv32</architecture>\n<feature name=\"org.gnu.gdb.riscv.cpu\">\n";
    for (uint32_t i = 0; i < 32; ++i) {
        const char* type = (i == 1) ? "code_ptr" : (i == 2 || i == 8) ? "data_ptr" : "int";
        x += "<reg name=\"" + std::string(kGprNames[i]) + "\" bitsize=\"32\" type=\"" + type + "\" regnum=\"" +
             std::to_string(i) + "\"/>\n";
    }
    x += "<reg name=\"pc\" bitsize=\"32\" type=\"code_ptr\" regnum=\"32\"/>\n</feature>\n";
    x += "<feature name=\"org.gnu.gdb.riscv.csr\">\n";
    for (const CsrName& c : kCsrs)
        x += "<reg name=\"" + std::string(c.name) + "\" bitsize=\"32\" type=\"int\" group=\"csr\" regnum=\"" +
             std::to_string(kRegFirstCsr + c.number) + "\"/>\n";
    x += "</feature>\n</target>\n";
    return x;
}
}  // namespace

const std::string& riscv32_target_xml() {
    static const std::string xml = build();
    return xml;
}

}  // namespace niclab::debug
