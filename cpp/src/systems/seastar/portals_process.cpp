#include "niclab/systems/seastar/portals_process.hpp"

#include "niclab/systems/seastar/seastar.hpp"

namespace niclab::seastar {

using namespace portals;

PortalsProcess::PortalsProcess(system::System& sys, size_t node, uint32_t pid, bool accelerated)
    : system_(sys),
      nal_(portals(sys, node)),
      accel_(accelerated ? &seastar::accelerated(sys, node, pid) : nullptr),
      ni_(accel_ ? static_cast<Nal&>(*accel_) : nal_, pid, accel_ ? accel_->limits() : Limits{}),
      injector_(sys.host_cpu(node), ni_, (accel_ ? "portals-accel-injector-" : "portals-injector-") + std::to_string(pid)) {
    if (accel_)
        progress_ = std::make_unique<host::Process>(sys.host_cpu(node), "portals-accel-events-" + std::to_string(pid),
                                                    [this](host::ProcessContext& ctx) {
                                                        for (;;) accel_->serve(ctx);
                                                    });
}

Library& PortalsProcess::lib() {
    ni_.nal().check_live();
    return ni_.library();
}

void PortalsProcess::tell_nal(std::function<void(host::ProcessContext&, Nal&)> f) {
    if (accel_) injector_.submit([f = std::move(f)](host::ProcessContext& ctx, Ni& ni) { f(ctx, ni.nal()); });
}

ptl_handle_me_t PortalsProcess::me_attach(const Nal::MeSpec& spec) {
    const ptl_handle_me_t h =
        spec.base != PTL_INVALID_HANDLE
            ? lib().me_insert(spec.base, spec.match_id, spec.match_bits, spec.ignore_bits, spec.unlink_op, spec.position)
            : lib().me_attach(spec.pt_index, spec.match_id, spec.match_bits, spec.ignore_bits, spec.unlink_op,
                              spec.position);
    tell_nal([=](host::ProcessContext& ctx, Nal& nal) { nal.me_attached(ctx, h, spec); });
    return h;
}

void PortalsProcess::me_unlink(ptl_handle_me_t me) {
    if (!accel_) return lib().me_unlink(me);
    if (!lib().me_valid(me)) throw PortalsError(PTL_ME_INVALID, "me_unlink: entry handle " + std::to_string(me));
    injector_.submit([=](host::ProcessContext& ctx, Ni& ni) { ni.me_unlink(ctx, me); });
}

ptl_handle_md_t PortalsProcess::md_attach(ptl_handle_me_t me, const ptl_md_t& md, ptl_unlink_t unlink_op) {
    ni_.nal().check_md(md, "md_attach");
    const ptl_handle_md_t h = lib().md_attach(me, md, unlink_op);
    tell_nal([=, state = lib().md_state(h)](host::ProcessContext& ctx, Nal& nal) {
        nal.md_attached(ctx, me, h, state, unlink_op);
    });
    return h;
}

ptl_handle_md_t PortalsProcess::md_bind(const ptl_md_t& md, ptl_unlink_t unlink_op) {
    ni_.nal().check_md(md, "md_bind");
    return lib().md_bind(md, unlink_op);
}

void PortalsProcess::md_unlink(ptl_handle_md_t md) {
    if (!accel_) return lib().md_unlink(md);
    if (!lib().md_valid(md)) throw PortalsError(PTL_MD_INVALID, "md_unlink: MD handle " + std::to_string(md));
    injector_.submit([=](host::ProcessContext& ctx, Ni& ni) { ni.md_unlink(ctx, md); });
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
