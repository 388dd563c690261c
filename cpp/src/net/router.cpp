#include "niclab/net/router.hpp"

namespace niclab::net {

Router::Router(uint32_t id, const std::vector<PortInfo>& ports, uint32_t vcs)
    : id_(id), vcs_(vcs), ports_(ports.size()), inputs_(ports.size() * vcs) {
    for (size_t p = 0; p < ports.size(); ++p) ports_[p].info = ports[p];
}

}  // namespace niclab::net
