#include "niclab/systems/seastar/portals_process.hpp"

#include "niclab/systems/seastar/seastar.hpp"

namespace niclab::seastar {

using namespace portals;

PortalsProcess::PortalsProcess(system::System& sys, size_t node, uint32_t pid)
    : nal_(portals(sys, node)), ni_(nal_, pid),
      injector_(sys.host_cpu(node), ni_, "portals-injector-" + std::to_string(pid)) {}

Library& PortalsProcess::lib() {
    ni_.nal().check_live();
    return ni_.library();
}

void PortalsProcess::put(ptl_handle_md_t md, bool ack, ptl_process_id_t target, ptl_pt_index_t pt,
                         ptl_match_bits_t bits, uint64_t remote_offset, uint64_t hdr_data, uint32_t ac_index) {
    if (!lib().md_valid(md)) throw PortalsError(PTL_MD_INVALID, "put from MD handle " + std::to_string(md));
    injector_.submit([=](host::ProcessContext& ctx, Ni& ni) {
        ni.put(ctx, md, ack ? PTL_ACK_REQ : PTL_NOACK_REQ, target, pt, ac_index, bits, remote_offset, hdr_data);
    });
}

void PortalsProcess::get(ptl_handle_md_t md, ptl_process_id_t target, ptl_pt_index_t pt, ptl_match_bits_t bits,
                         uint64_t remote_offset, uint32_t ac_index) {
    if (!lib().md_valid(md)) throw PortalsError(PTL_MD_INVALID, "get into MD handle " + std::to_string(md));
    injector_.submit([=](host::ProcessContext& ctx, Ni& ni) {
        ni.get(ctx, md, target, pt, ac_index, bits, remote_offset);
    });
}

}  // namespace niclab::seastar
