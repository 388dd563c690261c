#pragma once
// One thread at a time inside a System. Whatever runs a system releases the GIL (a run, a
// host call of JAM, CSP or GRIM, a firmware load's boot, a GDB session), so another Python
// thread could reach in meanwhile, and everything a binding object touches (a NIC's core
// and SRAM, its host memory, a host library's process) is that run's own state. So a run
// marks its system for its thread (RunMark), and every method of an object that belongs to
// a system (the System, its Nics and host memory, the per-node host APIs, a GDB server)
// first refuses, by name, a thread other than the one running it (SystemBusy). The run's
// own thread (its observer) may. All of it is only touched with the GIL held.
//
// A class is bound with guarded_class instead of py::class_: each named def and property
// of it is then wrapped, and guard_key finds an object's system (the System or a Nic
// itself, or what the object's system() or nic() returns).
#include <pybind11/pybind11.h>

#include <string>
#include <type_traits>
#include <utility>

#include "bindings.hpp"
#include "niclab/nic/embedded_nic.hpp"
#include "niclab/system/system.hpp"

namespace niclab::bindings {

// What stands for a system here: its kernel, which each of its objects can reach.
using GuardKey = const sim::Kernel*;

inline GuardKey guard_key(const system::System& s) { return &s.kernel(); }
inline GuardKey guard_key(const nic::EmbeddedNic& n) { return &n.kernel(); }
template <class T>
auto guard_key(const T& o) -> decltype(guard_key(o.system())) {
    return guard_key(o.system());
}
template <class T>
auto guard_key(const T& o) -> decltype(guard_key(o.nic())) {
    return guard_key(o.nic());
}

// SystemBusy naming `what` if a thread other than this one is running the system.
void refuse_if_running_elsewhere(GuardKey key, const std::string& what);

// Marks the system as run by this thread for the mark's life (the GIL held at both
// ends); a mark inside another on the same thread (an observer's nested run) leaves the
// outer one's. Refuses first, as above, if another thread runs it.
class RunMark {
public:
    RunMark(GuardKey key, const std::string& what);
    ~RunMark();
    RunMark(const RunMark&) = delete;
    RunMark& operator=(const RunMark&) = delete;

private:
    GuardKey key_;
    bool own_;
};

namespace guard_detail {

// The one wrapper: `f` called as (Self, A...) -> R, after the refusal.
template <class R, class Self, class... A, class F>
auto refusing(std::string what, F f) {
    return [what = std::move(what), f](Self self, A... a) -> R {
        refuse_if_running_elsewhere(guard_key(self), what);
        return f(std::forward<Self>(self), std::forward<A>(a)...);
    };
}

template <class Sig>
struct lambda_sig;
template <class C, class R, class Self, class... A>
struct lambda_sig<R (C::*)(Self, A...) const> {
    template <class F>
    static auto wrap(std::string what, F f) {
        return refusing<R, Self, A...>(std::move(what), std::move(f));
    }
};

// A lambda or function object whose first parameter is the object; a function taking
// it first; a member function.
template <class F>
auto wrap(std::string what, F f) {
    return lambda_sig<decltype(&F::operator())>::wrap(std::move(what), std::move(f));
}
template <class R, class Self, class... A>
auto wrap(std::string what, R (*f)(Self, A...)) {
    return refusing<R, Self, A...>(std::move(what), f);
}
template <class R, class T, class... A>
auto wrap(std::string what, R (T::*f)(A...)) {
    return refusing<R, T&, A...>(std::move(what), [f](T& self, A... a) -> R { return (self.*f)(std::forward<A>(a)...); });
}
template <class R, class T, class... A>
auto wrap(std::string what, R (T::*f)(A...) const) {
    return refusing<R, const T&, A...>(std::move(what),
                                       [f](const T& self, A... a) -> R { return (self.*f)(std::forward<A>(a)...); });
}

}  // namespace guard_detail

// `f` (a lambda, function or member function whose first parameter is the object) with
// the refusal in front: for a def outside a guarded_class (Nic.trace, niclab.gdb_server).
template <class F>
auto guarded(std::string what, F&& f) {
    return guard_detail::wrap(std::move(what), std::forward<F>(f));
}

// py::class_ whose named methods and properties refuse other threads while the system
// runs; constructors (py::init) pass through unwrapped.
template <class T>
class guarded_class : public pybind11::class_<T> {
    using Base = pybind11::class_<T>;

public:
    template <class... Extra>
    guarded_class(pybind11::handle scope, const char* name, const Extra&... extra)
        : Base(scope, name, extra...), name_(name) {}

    template <class F, class... Extra>
    guarded_class& def(const char* name, F&& f, const Extra&... extra) {
        Base::def(name, guarded(name_ + "." + name, std::forward<F>(f)), extra...);
        return *this;
    }
    template <class Init, class... Extra>
        requires(!std::is_convertible_v<Init, const char*>)
    guarded_class& def(Init&& init, const Extra&... extra) {
        Base::def(std::forward<Init>(init), extra...);
        return *this;
    }
    template <class F, class... Extra>
    guarded_class& def_property_readonly(const char* name, F&& f, const Extra&... extra) {
        Base::def_property_readonly(name, guarded(name_ + "." + name, std::forward<F>(f)), extra...);
        return *this;
    }
    // A fact fixed when the object was made, which no run changes (a GDB server's port,
    // which the debugger must learn while the server waits for it): from any thread.
    template <class F, class... Extra>
    guarded_class& def_constant(const char* name, F&& f, const Extra&... extra) {
        Base::def_property_readonly(name, std::forward<F>(f), extra...);
        return *this;
    }

private:
    std::string name_;  // the Python class's, for the operation's name: "Nic.peek32"
};

}  // namespace niclab::bindings
