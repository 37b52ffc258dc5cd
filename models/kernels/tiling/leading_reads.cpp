#include "models/kernels/tiling/leading_reads.h"

#include <vector>

#include "models/kernels/tiling/chained_stream.h"
#include "models/kernels/tiling/vector_tiling.h"

namespace ascendsim {

namespace {

// A scalar `set_as` reads one int64 word out of UB.
constexpr std::uint32_t kTilingWordBytes = 8;

struct PlacedRead {
    std::uint64_t gm = 0;  // workspace offset (inTiling) or absolute address
    std::uint64_t bytes = 0, blockStride = 0;
    std::uint32_t scalarWords = 0;
    bool inTiling = true;
};

}  // namespace

void prependLeadingReads(LoweredKernel& kernel, const ChipConfig& chip, std::vector<LeadingRead> reads,
                         std::uint64_t ubAddr) {
    if (reads.empty()) return;
    std::vector<PlacedRead> placed;
    std::uint64_t tilingOffset = alignUp(kernel.workspaceBytes, kUbBlockBytes);
    for (const LeadingRead& read : reads) {
        PlacedRead p{.bytes = read.bytes, .scalarWords = read.scalarWords, .inTiling = read.inTiling};
        if (read.inTiling) {
            p.gm = tilingOffset;
            p.blockStride = read.perBlock ? read.bytes : 0;
            tilingOffset += read.perBlock ? read.bytes * kernel.blockDim : read.bytes;
        } else {
            p.gm = read.gmAddr;
        }
        placed.push_back(p);
    }
    kernel.workspaceBytes = tilingOffset;
    const std::uint32_t wordCycles = chip.scalarCyclesPerInstruction;
    prependToEveryBlock(kernel, [placed, wordCycles, ubAddr](const BlockProgramRequest& request) {
        std::vector<Instruction> code;
        for (const PlacedRead& read : placed) {
            const std::uint64_t gm = (read.inTiling ? request.workspaceAddr : 0) + read.gm + request.blockIdx * read.blockStride;
            code.push_back(moveRowsToUb(gm, ubAddr, 1, read.bytes, read.bytes));
            code.push_back(Instruction::setFlag(Pipe::Mte2, Pipe::Scalar, 0));
            code.push_back(Instruction::waitFlag(Pipe::Mte2, Pipe::Scalar, 0));
            if (read.scalarWords != 0)
                code.push_back(Instruction::scalar(ScalarWork{.cycles = read.scalarWords * wordCycles,
                                                              .loads = static_cast<std::uint16_t>(read.scalarWords),
                                                              .memory = MemSpace::UB,
                                                              .bytesRead = read.scalarWords * kTilingWordBytes}));
        }
        return code;
    });
}

}  // namespace ascendsim
