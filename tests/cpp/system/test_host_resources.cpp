// A system the machine cannot hold fails with a HostResourceError naming the node and
// the memory, not a bare std::bad_alloc from deep inside its build.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <string>

#include "niclab/sim/host_resources.hpp"
#include "niclab/system/system.hpp"
#include "test_address_space.hpp"

namespace niclab::system {
namespace {

// In a child whose address space is what it holds plus 64 MB: two SeaStars whose RX DMA
// slot buffers take 16 MB each slot. Exits 0 when the build fails as it should.
int build_more_than_the_limit_allows() {
    test::limit_address_space_to_held_plus(64 << 20);
    try {
        System sys(SystemSpec::from_json({{"nodes", 2}, {"set", {{"dma.rx_buffer_bytes", 16 << 20}}}}));
    } catch (const sim::HostResourceError& e) {
        const std::string why = e.what();
        const bool named = why.rfind("node 0: the RX DMA engine's slot buffers (", 0) == 0 &&
                           why.find("KB) could not be had (mapping it): the machine is out of memory") != std::string::npos;
        if (!named) fprintf(stderr, "unexpected message: %s\n", why.c_str());
        return named ? 0 : 2;
    }
    return 1;
}
TEST(HostResourcesDeathTest, ASystemTooLargeForTheAddressSpaceNamesTheNodeAndTheMemory) {
    EXPECT_EXIT(_exit(build_more_than_the_limit_allows()), testing::ExitedWithCode(0), "");
}

}  // namespace
}  // namespace niclab::system
