#pragma once
// Register access to a DMA engine the way firmware does it, for the engine tests:
// every access must hit a register the engine answers to.
#include <gtest/gtest.h>

#include <cstdint>

namespace niclab::test {

template <typename Engine>
uint32_t engine_reg(Engine& engine, uint32_t offset) {
    uint32_t v = 0;
    EXPECT_TRUE(engine.read(offset, v)) << "offset " << offset;
    return v;
}

template <typename Engine>
void engine_store(Engine& engine, uint32_t offset, uint32_t v) {
    EXPECT_TRUE(engine.write(offset, v)) << "offset " << offset;
}

}  // namespace niclab::test
