// The S5933's interrupt line (board.hpp): one interrupt while the driver is away,
// none while it services the board (its loop re-checks, seed 003 L670).
#include "niclab/systems/dsnic/board.hpp"

namespace niclab::dsnic {

void S5933::request_interrupt() {
    if (asserted_ || in_service_) return;
    asserted_ = true;
    ++interrupts_;
    bus_.raise_interrupt([this](host::InterruptContext& ctx) {
        asserted_ = false;
        if (handler_) handler_(ctx);
    });
}

}  // namespace niclab::dsnic
