#include "niclab/exp/logp_machine.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <deque>
#include <functional>
#include <queue>
#include <string>
#include <vector>

namespace niclab::exp {

namespace {

struct Message {
    int src = 0, dst = 0;
    double bytes = 0;
};

// The work a processor's program queues: a send, or a computation that receives interrupt.
struct Task {
    enum class Kind { Send, Compute } kind = Kind::Send;
    double bytes = 0;      // Send
    double remaining = 0;  // Compute: what is left of the delay
};

// Two processors, one event queue. Programs are the processors' task queues plus the
// callbacks below; run() plays them out under the rules in logp_machine.hpp.
class Engine {
public:
    using OnReceive = std::function<void(int proc, const Message&, double t)>;
    using OnInject = std::function<void(int proc, double t)>;

    Engine(const LogGPCosts& c, int capacity) : c_(c), capacity_(capacity) {}

    void queue_send(int proc, double bytes) { procs_[proc].tasks.push_back({Task::Kind::Send, bytes, 0}); }
    // An answer sent from a receive handler (an Active Messages reply): it goes before
    // further receives and the program, and waits for the gap inside the handler.
    void queue_reply(int proc, double bytes) { procs_[proc].replies.push_back(bytes); }
    void queue_compute(int proc, double d) { procs_[proc].tasks.push_back({Task::Kind::Compute, 0, d}); }
    // Busy at once for `d`, taking no messages: a spin with receives left in the queue.
    void spin(int proc, double t, double d) { start(proc, Op::Spin, t, d); }

    OnReceive on_receive = [](int, const Message&, double) {};
    OnInject on_inject = [](int, double) {};

    void run() {
        while (!events_.empty()) {
            const double t = events_.top().time;
            while (!events_.empty() && events_.top().time == t) {
                const Event e = events_.top();
                events_.pop();
                apply(e, t);
            }
            for (int p = 0; p < 2; ++p) dispatch(p, t);
        }
    }

    // Starts both programs at time 0.
    void start_programs() {
        for (int p = 0; p < 2; ++p) dispatch(p, 0);
    }

private:
    enum class Op { None, Send, Receive, Spin, Compute };

    struct Proc {
        std::deque<Task> tasks;
        std::deque<double> replies;   // sizes of answers the handler has yet to send
        std::deque<Message> arrived;  // at the NIC, not yet taken by the processor
        Op op = Op::None;
        double until = 0;         // end of the current op
        unsigned token = 0;       // invalidates wake-ups of an op that was cut short
        Message current;          // the message being sent or received
        double next_injection = 0;
        std::vector<double> in_network;  // arrival times of own messages not yet arrived
    };

    struct Event {
        double time;
        unsigned long seq;  // FIFO among equal times: determinism
        int proc;
        bool arrival;
        unsigned token;
        Message msg;
        bool operator>(const Event& o) const { return time != o.time ? time > o.time : seq > o.seq; }
    };

    double extra_bytes_us(double bytes) const { return (std::max(bytes, 1.0) - 1) * c_.G_us_per_byte; }

    void wake(int proc, double t) { events_.push({t, seq_++, proc, false, procs_[proc].token, {}}); }

    void start(int proc, Op op, double t, double duration) { start_until(proc, op, t + duration); }
    void start_until(int proc, Op op, double until) {
        Proc& p = procs_[proc];
        p.op = op;
        p.until = until;
        ++p.token;
        wake(proc, until);
    }

    void start_send(int proc, double t, double bytes) {
        procs_[proc].current = Message{proc, 1 - proc, bytes};
        start(proc, Op::Send, t, c_.o_s_us);
    }

    void apply(const Event& e, double t) {
        Proc& p = procs_[e.proc];
        if (e.arrival) {
            p.arrived.push_back(e.msg);
            return;
        }
        if (e.token != p.token) return;  // the op was interrupted or re-planned
        const Op done = p.op;
        p.op = Op::None;
        switch (done) {
            case Op::Send: inject(e.proc, t); break;
            case Op::Receive: on_receive(e.proc, p.current, t); break;
            case Op::Compute: p.tasks.pop_front(); break;
            case Op::Spin:
            case Op::None: break;  // None: a waiting send may go now
        }
    }

    void inject(int proc, double t) {
        Proc& p = procs_[proc];
        const double extra = extra_bytes_us(p.current.bytes);
        const double arrival = t + c_.L_us + extra;
        p.next_injection = t + c_.g_us + extra;
        p.in_network.push_back(arrival);
        events_.push({arrival, seq_++, p.current.dst, true, 0, p.current});
        on_inject(proc, t);
    }

    // Earliest start of a send at or after t that the gap and the capacity allow.
    double send_start(Proc& p, double t) const {
        double start = std::max(t, p.next_injection - c_.o_s_us);
        std::erase_if(p.in_network, [t](double a) { return a <= t; });
        if (p.in_network.size() >= std::size_t(capacity_)) {
            std::vector<double> a = p.in_network;
            std::sort(a.begin(), a.end());
            // Injecting when a[k] arrives leaves capacity-1 in the network.
            start = std::max(start, a[a.size() - std::size_t(capacity_)] - c_.o_s_us);
        }
        return start;
    }

    void dispatch(int proc, double t) {
        Proc& p = procs_[proc];
        if (p.op != Op::None && p.op != Op::Compute) return;  // sends and receives run to the end
        if (!p.replies.empty() || !p.arrived.empty()) {
            if (p.op == Op::Compute) {  // interrupted: the rest of the delay waits
                p.tasks.front().remaining = p.until - t;
                p.op = Op::None;
                ++p.token;
            }
            if (!p.replies.empty()) {
                const double at = send_start(p, t);
                if (at > t) {  // the handler waits for the gap, taking no messages
                    start_until(proc, Op::Spin, at);
                    return;
                }
                const double bytes = p.replies.front();
                p.replies.pop_front();
                start_send(proc, t, bytes);
                return;
            }
            p.current = p.arrived.front();
            p.arrived.pop_front();
            start(proc, Op::Receive, t, c_.o_r_us);
            return;
        }
        if (p.op == Op::Compute) return;
        while (!p.tasks.empty()) {
            Task& task = p.tasks.front();
            if (task.kind == Task::Kind::Compute) {
                if (task.remaining <= 0) {
                    p.tasks.pop_front();
                    continue;
                }
                start(proc, Op::Compute, t, task.remaining);
                return;
            }
            const double at = send_start(p, t);
            if (at > t) {  // held by the gap or the capacity: idle, receives still taken
                ++p.token;
                wake(proc, at);
                return;
            }
            const double bytes = task.bytes;
            p.tasks.pop_front();
            start_send(proc, t, bytes);
            return;
        }
    }

    LogGPCosts c_;
    int capacity_;
    std::array<Proc, 2> procs_{};
    std::priority_queue<Event, std::vector<Event>, std::greater<>> events_;
    unsigned long seq_ = 0;
};

void check_cost(const char* name, double v) {
    if (!(v >= 0) || !std::isfinite(v))
        throw LogPMachineError(std::string("LogPMachine: ") + name + " must be >= 0 and finite, got " + format_number(v));
}

void check_bytes(const char* fn, double bytes) {
    if (!(bytes >= 0) || !std::isfinite(bytes))
        throw LogPMachineError(std::string("LogPMachine::") + fn + ": bytes must be >= 0, got " + format_number(bytes));
}

int default_capacity(const LogGPCosts& c) {
    if (c.capacity > 0) return c.capacity;
    return std::max(1, int(std::ceil(c.L_us / c.g_us)));
}

// The client (processor 0) sends n messages, computing d before each after the first; the
// server answers the n-th. Returns when the client has received the answer.
double run_prtt(const LogGPCosts& c, double bytes, int n, double d) {
    Engine e(c, default_capacity(c));
    e.queue_send(0, bytes);
    for (int i = 1; i < n; ++i) {
        e.queue_compute(0, d);
        e.queue_send(0, bytes);
    }
    int received = 0;
    double done = 0;
    e.on_receive = [&](int proc, const Message&, double t) {
        if (proc == 1 && ++received == n) e.queue_reply(1, bytes);
        if (proc == 0) done = t;
    };
    e.start_programs();
    e.run();
    return done;
}

// o_r as the server sees it: the first message starts its clock and a spin of (n-1)*d
// during which the others arrive and queue; receiving them then costs (n-1)*o_r.
double run_server_o_r(const LogGPCosts& c, double bytes, int n, double d) {
    Engine e(c, default_capacity(c));
    for (int i = 0; i < n; ++i) e.queue_send(0, bytes);
    int received = 0;
    double first = 0, last = 0;
    const double wait = double(n - 1) * d;
    e.on_receive = [&](int proc, const Message&, double t) {
        if (proc != 1) return;
        if (++received == 1) {
            first = t;
            e.spin(1, t, wait);
        }
        if (received == n) last = t;
    };
    e.start_programs();
    e.run();
    return ((last - first) - wait) / double(n - 1);
}

}  // namespace

LogPMachine::LogPMachine(LogGPCosts c) : costs_(c) {
    check_cost("o_s", c.o_s_us);
    check_cost("o_r", c.o_r_us);
    check_cost("L", c.L_us);
    check_cost("G", c.G_us_per_byte);
    if (!(c.g_us > 0) || !std::isfinite(c.g_us))
        throw LogPMachineError("LogPMachine: g must be > 0 and finite, got " + format_number(c.g_us));
    if (c.capacity < 0)
        throw LogPMachineError("LogPMachine: capacity must be >= 0 (0: ceil(L/g)), got " +
                               std::to_string(c.capacity));
    costs_.capacity = default_capacity(c);
}

double LogPMachine::signature_t_total_us(int m, double d_us, double bytes) const {
    if (m < 1) throw LogPMachineError("LogPMachine::signature_t_total_us: m must be >= 1, got " + std::to_string(m));
    if (!(d_us >= 0) || !std::isfinite(d_us))
        throw LogPMachineError("LogPMachine::signature_t_total_us: d must be >= 0, got " + format_number(d_us));
    check_bytes("signature_t_total_us", bytes);
    Engine e(costs_, costs_.capacity);
    e.queue_send(0, bytes);
    for (int i = 1; i < m; ++i) {
        e.queue_compute(0, d_us);
        e.queue_send(0, bytes);
    }
    int issued = 0;
    double t_total = 0;
    e.on_inject = [&](int proc, double t) {
        if (proc == 0 && ++issued == m) t_total = t;
    };
    e.on_receive = [&](int proc, const Message&, double) {
        if (proc == 1) e.queue_reply(1, bytes);
    };
    e.start_programs();
    e.run();
    return t_total;
}

double LogPMachine::round_trip_us(double bytes) const {
    check_bytes("round_trip_us", bytes);
    return run_prtt(costs_, bytes, 1, 0);
}

PrttPoint LogPMachine::prtt(double bytes, int n) const {
    check_bytes("prtt", bytes);
    if (n < 2) throw LogPMachineError("LogPMachine::prtt: n must be >= 2, got " + std::to_string(n));
    PrttPoint p;
    p.size = bytes;
    p.prtt_1_0_us = run_prtt(costs_, bytes, 1, 0);
    p.prtt_n_0_us = run_prtt(costs_, bytes, n, 0);
    p.d_us = p.prtt_1_0_us;
    p.prtt_n_d_us = run_prtt(costs_, bytes, n, p.d_us);
    p.o_r_us = run_server_o_r(costs_, bytes, n, p.d_us);
    return p;
}

}  // namespace niclab::exp
