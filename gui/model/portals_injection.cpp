#include "model/portals_injection.hpp"

#include <algorithm>

#include "model/host_bytes.hpp"
#include "model/input_error.hpp"
#include "model/pattern_payload.hpp"
#include "niclab/msg/portals/types.hpp"
#include "niclab/system/system_model.hpp"
#include "niclab/systems/seastar/portals_process.hpp"

namespace niclab::gui {

using namespace portals;

std::string payload_of(const PortalsMessage& m) { return pattern_payload(m.pattern, m.length); }

PortalsInjection::PortalsInjection(system::System& sys) : sys_(sys) {}
PortalsInjection::~PortalsInjection() = default;

std::string PortalsInjection::unsupported(system::System& sys) {
    if (sys.model().name() == "seastar") return "";
    return "the " + sys.model().name() +
           " has no Portals: the Portals injector needs a SeaStar running the Portals firmware";
}

seastar::PortalsProcess& PortalsInjection::process(size_t node) {
    auto& p = processes_[node];
    if (p) {
        try {
            p->lib();  // PortalsError once a firmware reload retired its driver
        } catch (const PortalsError&) {
            p.reset();
        }
    }
    if (!p) p = std::make_unique<seastar::PortalsProcess>(sys_, node, kPid);
    return *p;
}

namespace {

// The events an operation owes each side before it is finished.
std::vector<std::pair<bool, ptl_event_kind_t>> owed(const PortalsMessage& m) {
    if (m.op == PortalsMessage::Op::get) return {{true, PTL_EVENT_REPLY_END}, {false, PTL_EVENT_GET_END}};
    std::vector<std::pair<bool, ptl_event_kind_t>> out{{true, PTL_EVENT_SEND_END}, {false, PTL_EVENT_PUT_END}};
    if (m.ack) out.push_back({true, PTL_EVENT_ACK});
    return out;
}

}  // namespace

InjectionOutcome PortalsInjection::inject(const PortalsMessage& m) {
    const size_t n = sys_.node_count();
    check_node("initiator node", m.initiator, n);
    check_node("target node", m.target, n);
    if (m.length == 0 || m.length > kMaxLength)
        throw InputError("MD length " + std::to_string(m.length) + ": from 1 to " + std::to_string(kMaxLength) + " bytes");
    if (m.remote_offset > kMaxLength)
        throw InputError("remote offset " + std::to_string(m.remote_offset) + ": at most " + std::to_string(kMaxLength));

    seastar::PortalsProcess& init = process(m.initiator);
    seastar::PortalsProcess& targ = process(m.target);
    Library& il = init.lib();
    Library& tl = targ.lib();
    const bool put = m.op == PortalsMessage::Op::put;
    const std::string payload = payload_of(m);
    const uint64_t region = m.remote_offset + m.length;  // the target MD spans the offset and the payload

    // The target: a match entry for these bits on this portal index, unlinked with its
    // MD after one operation (so an injection leaves nothing behind once it arrived).
    const ptl_handle_eq_t teq = tl.eq_alloc(64);
    const ptl_handle_eq_t ieq = il.eq_alloc(64);
    const ptl_handle_me_t me = tl.me_attach(m.pt_index, {PTL_NID_ANY, PTL_PID_ANY}, m.target_bits.value_or(m.match_bits), 0,
                                             PTL_UNLINK, PTL_INS_BEFORE);
    tl.md_attach(me, ptl_md(kTargetBuffer, region, PTL_MD_OP_PUT | PTL_MD_OP_GET | PTL_MD_MANAGE_REMOTE, teq, 1), PTL_UNLINK);
    const ptl_handle_md_t md = il.md_bind(ptl_md(kInitiatorBuffer, m.length, 0, ieq), PTL_RETAIN);
    host::HostMemory& imem = sys_.host_memory(m.initiator);
    host::HostMemory& tmem = sys_.host_memory(m.target);
    // Fresh memory where the bytes land, so a check cannot pass on a previous injection's.
    if (put) {
        write_bytes(tmem, kTargetBuffer + m.remote_offset, std::string(m.length, '\0'));
        write_bytes(imem, kInitiatorBuffer, payload);
        init.put(md, m.ack, {uint32_t(m.target), kPid}, m.pt_index, m.match_bits, m.remote_offset, 0, 0);
    } else {
        write_bytes(imem, kInitiatorBuffer, std::string(m.length, '\0'));
        write_bytes(tmem, kTargetBuffer + m.remote_offset, payload);
        init.get(md, {uint32_t(m.target), kPid}, m.pt_index, m.match_bits, m.remote_offset, 0);
    }
    const size_t errors_before = init.injector().errors().size();

    InjectionOutcome out;
    const Time start = sys_.now();
    auto drain = [&](Library& lib, ptl_handle_eq_t eq, size_t node, const char* side) {
        ptl_event_t ev;
        while (lib.eq_get(eq, ev) != PTL_EQ_EMPTY) {
            std::string type = ptl_event_str(ev.type);
            if (type.starts_with("PTL_EVENT_")) type = type.substr(10);
            out.events.push_back({node, side, type, ev.time, ev.mlength, ev.rlength, ev.offset, ev.match_bits,
                                  ev.ni_fail_type != PTL_NI_OK});
        }
    };
    auto finished = [&] {
        for (auto [initiator_side, kind] : owed(m)) {
            const std::string want = std::string(ptl_event_str(kind)).substr(10);
            const char* side = initiator_side ? "initiator" : "target";
            if (std::none_of(out.events.begin(), out.events.end(),
                             [&](const InjectedEvent& e) { return e.side == side && e.type == want; }))
                return false;
        }
        return true;
    };
    // Short slices, so the run stops soon after the last event rather than at kPatience.
    while (sys_.now() - start < kPatience) {
        const Time before = sys_.now();
        const auto r = sys_.run_for(Time::us(5));
        drain(il, ieq, m.initiator, "initiator");
        drain(tl, teq, m.target, "target");
        if (finished() || !r.faulted_nodes.empty() || init.injector().errors().size() > errors_before) break;
        if (sys_.now() == before) break;  // idle: nothing left that could bring an event
    }
    std::stable_sort(out.events.begin(), out.events.end(), [](const auto& a, const auto& b) { return a.time < b.time; });
    out.complete = finished();
    const auto& errs = init.injector().errors();
    out.errors.assign(errs.begin() + long(errors_before), errs.end());

    // The bytes where they should have arrived, against the payload.
    const std::string got = put ? read_bytes(tmem, kTargetBuffer + m.remote_offset, m.length) : read_bytes(imem, kInitiatorBuffer, m.length);
    out.bytes_expected = m.length;
    out.bytes_matching = matching_bytes(got, payload);

    // Leave nothing behind: an operation that never arrived keeps its ME and MD.
    try {
        if (tl.me_valid(me)) tl.me_unlink(me);
        il.md_unlink(md);
        tl.eq_free(teq);
        il.eq_free(ieq);
    } catch (const PortalsError&) {  // still in use (the operation is under way): left to the library
    }

    out.summary = std::string(put ? "put" : "get") + " of " + std::to_string(m.length) + " B, node " +
                  std::to_string(m.initiator) + (put ? " → " : " ← ") + "node " + std::to_string(m.target) +
                  ", portal " + std::to_string(m.pt_index) + ": " + std::to_string(out.events.size()) + " events, " +
                  std::to_string(out.bytes_matching) + "/" + std::to_string(out.bytes_expected) + " bytes checked" +
                  (out.complete ? "" : " (incomplete)");
    return out;
}

}  // namespace niclab::gui
