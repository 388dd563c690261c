#pragma once
// A fake NIC core for the kernel's lookahead tests: its clock advances in fixed steps up
// to the horizon, calling on_step at the start of each step, at its time.
#include <functional>

#include "niclab/sim/kernel.hpp"

namespace niclab::sim::test {

class SteppingCore : public Runnable {
public:
    explicit SteppingCore(Time step) : step_(step) {}
    Time local_time() const override { return local_; }
    bool active() const override { return active_; }
    void run(Kernel& k) override {
        ++runs;
        while (active_ && local_ < k.horizon()) {
            if (on_step) on_step(k, local_);
            local_ += step_;
        }
    }
    bool active_ = true;
    int runs = 0;
    std::function<void(Kernel&, Time)> on_step;

private:
    Time local_{};
    Time step_;
};

}  // namespace niclab::sim::test
