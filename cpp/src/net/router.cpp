#include "niclab/net/router.hpp"

namespace niclab::net {

Router::Router(uint32_t id, const std::vector<PortInfo>& ports, uint32_t vcs, uint32_t dateline_vcs, CreditUnit unit,
               bool wormhole)
    : id_(id), vcs_(vcs), unit_(unit), wormhole_(wormhole), ports_(ports.size()), inputs_(ports.size() * vcs) {
    for (size_t p = 0; p < ports.size(); ++p) ports_[p].info = ports[p];
    for (size_t b = 0; b < inputs_.size(); ++b) inputs_[b].vnet = uint8_t(b % vcs / dateline_vcs);
}

}  // namespace niclab::net
