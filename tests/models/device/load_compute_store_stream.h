#pragma once
// The program of a streaming vector block for device tests: per tile, load a tile from GM, one
// vector op, store its result, with two UB buffers taking turns (the double-buffered CopyIn /
// Compute / CopyOut of vector_tiling_stream.h, written out by hand).
#include <cstdint>
#include <vector>

#include "tests/models/device/device_test_chip.h"

namespace ascendsim::test {

// `tiles` tiles of `loadBytes` read from `in` and `storeBytes` written to `out` (both contiguous).
// UB: the loads at 0 and loadBytes, the results from 0x10000 (loadBytes <= 32 KiB).
inline std::vector<Instruction> loadComputeStoreStream(std::uint64_t in, std::uint64_t out, int tiles, std::uint32_t loadBytes,
                                                       std::uint32_t storeBytes) {
    std::vector<Instruction> p;
    for (int i = 0; i < tiles; ++i) {
        const auto buf = static_cast<std::uint8_t>(i % 2);
        const std::uint64_t ub = buf * std::uint64_t{loadBytes};
        const std::uint64_t result = 0x10000 + buf * std::uint64_t{storeBytes};
        if (i >= 2) p.push_back(Instruction::waitFlag(Pipe::Vector, Pipe::Mte2, buf));
        p.push_back(gmToUb(ub, loadBytes, in + std::uint64_t(i) * loadBytes));
        p.push_back(Instruction::setFlag(Pipe::Mte2, Pipe::Vector, buf));
        p.push_back(Instruction::waitFlag(Pipe::Mte2, Pipe::Vector, buf));
        if (i >= 2) p.push_back(Instruction::waitFlag(Pipe::Mte3, Pipe::Vector, buf));
        p.push_back(vadds(result, ub));
        p.push_back(Instruction::setFlag(Pipe::Vector, Pipe::Mte2, buf));
        p.push_back(Instruction::setFlag(Pipe::Vector, Pipe::Mte3, buf));
        p.push_back(Instruction::waitFlag(Pipe::Vector, Pipe::Mte3, buf));
        p.push_back(ubToGm(result, storeBytes, out + std::uint64_t(i) * storeBytes));
        p.push_back(Instruction::setFlag(Pipe::Mte3, Pipe::Vector, buf));
    }
    return p;
}

}  // namespace ascendsim::test
