#include "niclab/msg/portals/ni.hpp"

namespace niclab::portals {

Ni::Ni(Nal& nal, ptl_pid_t pid, Limits limits) : nal_(nal), lib_({nal.nid(), pid}, 0, limits) {
    if (pid > 0xFFFF) throw PortalsError(PTL_PROCESS_INVALID, "pid " + std::to_string(pid) + " does not fit the header's 16 bits");
    nal_.attach(lib_);
}

Ni::~Ni() { nal_.detach(lib_); }

ptl_handle_eq_t Ni::eq_alloc(host::ProcessContext& ctx, ptl_size_t count) {
    enter_kernel(ctx);
    return lib_.eq_alloc(count);
}

void Ni::eq_free(host::ProcessContext& ctx, ptl_handle_eq_t eq) {
    enter_kernel(ctx);
    lib_.eq_free(eq);
}

ptl_err_t Ni::eq_get(host::ProcessContext& ctx, ptl_handle_eq_t eq, ptl_event_t& event) {
    enter_kernel(ctx);
    return lib_.eq_get(eq, event);
}

ptl_err_t Ni::eq_wait(host::ProcessContext& ctx, ptl_handle_eq_t eq, ptl_event_t& event) {
    enter_kernel(ctx);
    lib_.eq_condition(eq);  // a bad handle throws before the wait
    nal_.wait_event(ctx, lib_, eq);
    return lib_.eq_get(eq, event);
}

ptl_event_t Ni::eq_wait(host::ProcessContext& ctx, ptl_handle_eq_t eq) {
    ptl_event_t ev;
    eq_wait(ctx, eq, ev);
    return ev;
}

ptl_handle_me_t Ni::me_attach(host::ProcessContext& ctx, ptl_pt_index_t pt_index, ptl_process_id_t match_id,
                              ptl_match_bits_t match_bits, ptl_match_bits_t ignore_bits, ptl_unlink_t unlink_op,
                              ptl_ins_pos_t position) {
    enter_kernel(ctx);
    const ptl_handle_me_t h = lib_.me_attach(pt_index, match_id, match_bits, ignore_bits, unlink_op, position);
    nal_.me_attached(ctx, h, {pt_index, match_id, match_bits, ignore_bits, unlink_op, position, PTL_INVALID_HANDLE});
    return h;
}

ptl_handle_me_t Ni::me_insert(host::ProcessContext& ctx, ptl_handle_me_t base, ptl_process_id_t match_id,
                              ptl_match_bits_t match_bits, ptl_match_bits_t ignore_bits, ptl_unlink_t unlink_op,
                              ptl_ins_pos_t position) {
    enter_kernel(ctx);
    const ptl_handle_me_t h = lib_.me_insert(base, match_id, match_bits, ignore_bits, unlink_op, position);
    nal_.me_attached(ctx, h, {0, match_id, match_bits, ignore_bits, unlink_op, position, base});
    return h;
}

void Ni::me_unlink(host::ProcessContext& ctx, ptl_handle_me_t me) {
    enter_kernel(ctx);
    lib_.check_me_unlink(me);
    nal_.me_unlink(ctx, me);
    lib_.me_unlink(me);
}

ptl_handle_md_t Ni::md_attach(host::ProcessContext& ctx, ptl_handle_me_t me, const ptl_md_t& md,
                              ptl_unlink_t unlink_op) {
    enter_kernel(ctx);
    nal_.check_md(md, "md_attach");
    const ptl_handle_md_t h = lib_.md_attach(me, md, unlink_op);
    nal_.md_attached(ctx, me, h, lib_.md_state(h), unlink_op);
    return h;
}

ptl_handle_md_t Ni::md_bind(host::ProcessContext& ctx, const ptl_md_t& md, ptl_unlink_t unlink_op) {
    enter_kernel(ctx);
    nal_.check_md(md, "md_bind");
    return lib_.md_bind(md, unlink_op);
}

void Ni::md_unlink(host::ProcessContext& ctx, ptl_handle_md_t md) {
    enter_kernel(ctx);
    lib_.check_md_unlink(md);
    nal_.md_unlink(ctx, md);
    lib_.md_unlink(md);
}

void Ni::put(host::ProcessContext& ctx, ptl_handle_md_t md, ptl_ack_req_t ack_req, ptl_process_id_t target,
             ptl_pt_index_t pt_index, ptl_ac_index_t ac_index, ptl_match_bits_t match_bits, ptl_size_t remote_offset,
             ptl_hdr_data_t hdr_data) {
    enter_kernel(ctx);
    nal_.check_target(target.nid, "put");
    nal_.transmit(ctx, lib_.put(md, ack_req, target, pt_index, ac_index, match_bits, remote_offset, hdr_data, ctx.now()));
}

void Ni::get(host::ProcessContext& ctx, ptl_handle_md_t md, ptl_process_id_t target, ptl_pt_index_t pt_index,
             ptl_ac_index_t ac_index, ptl_match_bits_t match_bits, ptl_size_t remote_offset) {
    enter_kernel(ctx);
    nal_.check_target(target.nid, "get");
    nal_.transmit(ctx, lib_.get(md, target, pt_index, ac_index, match_bits, remote_offset, ctx.now()));
}

}  // namespace niclab::portals
