// C++ errors become the Python exception classes of niclab.errors, with the
// fields a caller needs (key path, rule, PC, function, source line).
#include "bindings.hpp"
#include "niclab/core/fault.hpp"
#include "niclab/debug/rsp_socket.hpp"
#include "niclab/exp/bench.hpp"
#include "niclab/exp/fits.hpp"
#include "niclab/exp/options.hpp"
#include "niclab/exp/result.hpp"
#include "niclab/fw/firmware_image.hpp"
#include "niclab/msg/portals/types.hpp"
#include "niclab/net/network_error.hpp"
#include "niclab/sim/host_resources.hpp"
#include "niclab/nic/embedded_nic.hpp"
#include "niclab/system/config_error.hpp"
#include "niclab/systems/dsnic/params.hpp"
#include "niclab/systems/grim/endpoint.hpp"
#include "niclab/systems/grim/multicast.hpp"
#include "niclab/systems/grim/sockets.hpp"
#include "niclab/systems/grim/vm.hpp"
#include "niclab/systems/startx/message.hpp"
#include "niclab/trace/trace.hpp"

namespace py = pybind11;

namespace niclab::bindings {

namespace {
void raise(const char* cls, const char* message, py::dict attrs) {
    py::object type = py::module_::import("niclab.errors").attr(cls);
    py::object exc = type(text(message));
    for (auto item : attrs) py::setattr(exc, item.first, item.second);
    PyErr_SetObject(type.ptr(), exc.ptr());
}
// The niclab.errors class of a StarT-X error: its own, or StartxError.
const char* startx_error_class(const startx::StartxError& e) {
    if (dynamic_cast<const startx::MessageFormatError*>(&e)) return "MessageFormatError";
    if (dynamic_cast<const startx::UnknownPriorityError*>(&e)) return "UnknownPriorityError";
    if (dynamic_cast<const startx::QueueOverflowError*>(&e)) return "QueueOverflowError";
    if (dynamic_cast<const startx::EmptyQueueError*>(&e)) return "EmptyQueueError";
    if (dynamic_cast<const startx::RdmaError*>(&e)) return "RdmaError";
    if (dynamic_cast<const startx::DriverError*>(&e)) return "DriverError";
    return "StartxError";
}
}  // namespace

py::dict fault_attrs(const core::FirmwareFault& f) {
    const auto& i = f.info();
    py::dict d;
    d["kind"] = core::fault_kind_name(i.kind);
    d["pc"] = i.pc;
    d["mcause"] = i.cause;
    d["cause"] = i.kind == core::FaultKind::UnhandledTrap ? core::trap_cause_name(i.cause) : core::fault_kind_name(i.kind);
    d["tval"] = i.tval;
    d["where"] = text(f.where());
    d["time_us"] = i.time.as_us();
    d["reason"] = text(i.message);
    return d;
}

void register_errors(py::module_&) {
    py::register_exception_translator([](std::exception_ptr p) {
        if (!p) return;
        try {
            std::rethrow_exception(p);
        } catch (const system::ConfigError& e) {
            py::dict d;
            d["key_path"] = e.key_path();
            raise("ConfigError", e.what(), d);
        } catch (const fw::FirmwareImageError& e) {
            py::dict d;
            d["rule"] = e.rule();
            raise("FirmwareImageError", e.what(), d);
        } catch (const nic::BootTimeout& e) {
            raise("BootTimeout", e.what(), fault_attrs(e));
        } catch (const core::FirmwareFault& e) {
            raise("FirmwareFault", e.what(), fault_attrs(e));
        } catch (const trace::TraceFormatError& e) {
            py::dict d;
            d["offset"] = e.offset();
            raise("TraceFormatError", e.what(), d);
        } catch (const trace::TraceBuildIdMismatch& e) {
            py::dict d;
            d["trace_build_id"] = e.trace_build_id();
            d["elf_build_id"] = e.elf_build_id();
            raise("TraceBuildIdMismatch", e.what(), d);
        } catch (const trace::TraceError& e) {
            raise("TraceError", e.what(), py::dict());
        } catch (const portals::PortalsError& e) {
            py::dict d;
            d["code"] = portals::ptl_err_str(e.code());
            raise("PortalsError", e.what(), d);
        } catch (const startx::StartxError& e) {
            raise(startx_error_class(e), e.what(), py::dict());
        } catch (const grim::MulticastError& e) {
            py::dict d;
            d["key"] = e.key();
            raise("GrimMulticastError", e.what(), d);
        } catch (const grim::MemoryError& e) {
            py::dict d;
            d["node"] = e.node();
            d["va"] = e.va();
            raise("GrimMemoryError", e.what(), d);
        } catch (const grim::DeliveryError& e) {
            py::dict d;
            d["node"] = e.node();
            d["type"] = e.type();
            raise("GrimDeliveryError", e.what(), d);
        } catch (const grim::SocketError& e) {
            py::dict d;
            d["node"] = e.node();
            d["fd"] = e.fd();
            raise("GrimSocketError", e.what(), d);
        } catch (const dsnic::DsnicError& e) {
            raise("DsnicError", e.what(), py::dict());
        } catch (const exp::ExperimentFault& e) {
            py::dict d = fault_attrs(e.fault());
            d["node"] = e.node();
            d["result"] = py::cast(e.partial());
            raise("ExperimentFault", e.what(), d);
        } catch (const exp::ExperimentError& e) {
            raise("ExperimentError", e.what(), py::dict());
        } catch (const exp::FitError& e) {
            raise("FitError", e.what(), py::dict());
        } catch (const exp::ResultError& e) {
            raise("ResultError", e.what(), py::dict());
        } catch (const debug::GdbServerError& e) {
            py::dict d;
            d["port"] = e.port();
            raise("GdbServerError", e.what(), d);
        } catch (const net::CaptureError& e) {
            py::dict d;
            d["tap"] = e.tap();
            d["path"] = e.path();
            raise("CaptureError", e.what(), d);
        } catch (const sim::HostResourceError& e) {
            raise("HostResourceError", e.what(), py::dict());
        } catch (const SystemBusy& e) {
            py::dict d;
            d["operation"] = e.operation();
            raise("SystemBusy", e.what(), d);
        } catch (const niclab::Error& e) {
            raise("NiclabError", e.what(), py::dict());
        }
    });
}

}  // namespace niclab::bindings
