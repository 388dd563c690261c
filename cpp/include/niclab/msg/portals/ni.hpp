#pragma once
// A host process's Portals network interface (PtlNIInit .. PtlNIFini): the Portals 3.3
// API for code running in a host::Process. Generic processes forward every call to
// the OS kernel (seed 000 §4.1), so each call costs a trap (the null trap, seed 001
// §3.3) plus the library's work there; put and get then hand the message to the
// node's NAL (nal.hpp; on the SeaStar, seastar::SsNal). An accelerated process's NAL
// (seastar::AccelNal) runs at user level instead: no trap, and its match entries and
// MDs are mirrored into the firmware. Errors throw PortalsError with the
// specification's return code.
//
//     portals::Ni ni(nal, /*pid=*/0);
//     host::Process p(cpu, "receiver", [&](host::ProcessContext& ctx) {
//         auto eq = ni.eq_alloc(ctx, 64);
//         auto me = ni.me_attach(ctx, 4, {PTL_NID_ANY, PTL_PID_ANY}, 0x17, 0, PTL_RETAIN, PTL_INS_AFTER);
//         ni.md_attach(ctx, me, ptl_md(buf, n, PTL_MD_OP_PUT, eq), PTL_RETAIN);
//         ptl_event_t ev = ni.eq_wait(ctx, eq);   // PTL_EVENT_PUT_START, then ..._END
//     });
#include "niclab/host/process.hpp"
#include "niclab/msg/portals/library.hpp"
#include "niclab/msg/portals/nal.hpp"

namespace niclab::portals {

class Ni {
public:
    Ni(Nal& nal, ptl_pid_t pid, Limits limits = {});  // PtlNIInit
    ~Ni();                                                // PtlNIFini
    Ni(const Ni&) = delete;
    Ni& operator=(const Ni&) = delete;

    ptl_process_id_t id() const { return lib_.id(); }    // PtlGetId
    Library& library() { return lib_; }
    Nal& nal() { return nal_; }

    ptl_handle_eq_t eq_alloc(host::ProcessContext& ctx, ptl_size_t count);
    void eq_free(host::ProcessContext& ctx, ptl_handle_eq_t eq);
    ptl_err_t eq_get(host::ProcessContext& ctx, ptl_handle_eq_t eq, ptl_event_t& event);  // PTL_OK/EQ_EMPTY/EQ_DROPPED
    ptl_err_t eq_wait(host::ProcessContext& ctx, ptl_handle_eq_t eq, ptl_event_t& event);  // blocks; PTL_OK/EQ_DROPPED
    ptl_event_t eq_wait(host::ProcessContext& ctx, ptl_handle_eq_t eq);

    ptl_handle_me_t me_attach(host::ProcessContext& ctx, ptl_pt_index_t pt_index, ptl_process_id_t match_id,
                              ptl_match_bits_t match_bits, ptl_match_bits_t ignore_bits, ptl_unlink_t unlink_op,
                              ptl_ins_pos_t position);
    ptl_handle_me_t me_insert(host::ProcessContext& ctx, ptl_handle_me_t base, ptl_process_id_t match_id,
                              ptl_match_bits_t match_bits, ptl_match_bits_t ignore_bits, ptl_unlink_t unlink_op,
                              ptl_ins_pos_t position);
    void me_unlink(host::ProcessContext& ctx, ptl_handle_me_t me);
    ptl_handle_md_t md_attach(host::ProcessContext& ctx, ptl_handle_me_t me, const ptl_md_t& md, ptl_unlink_t unlink_op);
    ptl_handle_md_t md_bind(host::ProcessContext& ctx, const ptl_md_t& md, ptl_unlink_t unlink_op);
    void md_unlink(host::ProcessContext& ctx, ptl_handle_md_t md);

    void put(host::ProcessContext& ctx, ptl_handle_md_t md, ptl_ack_req_t ack_req, ptl_process_id_t target,
             ptl_pt_index_t pt_index, ptl_ac_index_t ac_index, ptl_match_bits_t match_bits, ptl_size_t remote_offset,
             ptl_hdr_data_t hdr_data = 0);
    void get(host::ProcessContext& ctx, ptl_handle_md_t md, ptl_process_id_t target, ptl_pt_index_t pt_index,
             ptl_ac_index_t ac_index, ptl_match_bits_t match_bits, ptl_size_t remote_offset);

private:
    // Generic mode traps into the kernel; accelerated mode stays at user level (Nal::enter).
    void enter_kernel(host::ProcessContext& ctx) { nal_.enter(ctx); }

    Nal& nal_;
    Library lib_;
};

}  // namespace niclab::portals
