#pragma once
// Helpers shared by the vector op tests: block_dim sweeps, reference rounding, and running an op
// with the cube tests' harness (a generic FunctionalMachine wrapper).
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "models/kernels/tiling/vector_tiling.h"
#include "tests/models/kernels/cube_test_support.h"
#include "tests/models/kernels/test_chip.h"
#include "models/functional/float_conversion.h"

namespace ascendsim::test {

// The block_dims every vector op is proven for: the default, 1, every vector core of the 910B1,
// and a count that divides nothing evenly.
inline std::vector<std::optional<std::uint32_t>> blockDimSweep() { return {std::nullopt, 1u, 48u, 7u}; }

inline std::string blockDimName(const std::optional<std::uint32_t>& blockDim) {
    return blockDim ? "block_dim " + std::to_string(*blockDim) : "default block_dim";
}

inline std::vector<double> roundedTo(DataType dtype, std::vector<double> values) {
    for (auto& v : values) v = roundToType(v, dtype);
    return values;
}

// Relative tolerance of one computation in `dtype` (a few ulps, computing in fp32 inside).
inline double relativeTolerance(DataType dtype) {
    switch (dtype) {
        case DataType::Fp16: return 2e-3;
        case DataType::Bf16: return 1.6e-2;
        default: return 1e-5;
    }
}

inline double absoluteTolerance(DataType dtype) { return isFloat(dtype) ? relativeTolerance(dtype) * 1e-2 : 0.0; }

// Runs TransData x → y to `dstFormat` (y's format set by the caller); returns its kernels.
inline std::vector<LoweredKernel> runTransData(CubeOpHarness& h, const TensorInfo& x, const TensorInfo& y,
                                               const std::string& dstFormat) {
    auto op = makeOp("TransData", {x}, {y});
    op.attrs["dst_format"] = dstFormat;
    return h.run(op);
}

// What vector-kernel tests count in a block's program most often: its GM loads and stores, the
// event ids its loads hand on to V with, and its scalar steps above a tile's plain bookkeeping.
struct BlockMoveCounts {
    std::uint64_t loads = 0, stores = 0;
    std::uint32_t loadEvents = 0;                 // bit e: a load handed on to V with event id e
    std::vector<std::uint32_t> tileScalarCycles;  // scalar steps above kScalarCyclesPerTile

    void count(const Instruction& instruction) {
        if (const auto* move = std::get_if<DataMove>(&instruction.operands)) {
            if (move->src == MemSpace::GM) ++loads;
            if (move->dst == MemSpace::GM) ++stores;
        } else if (const auto* f = std::get_if<Flag>(&instruction.operands)) {
            if (instruction.opcode == Opcode::SetFlag && f->src == Pipe::Mte2 && f->dst == Pipe::Vector)
                loadEvents |= 1u << f->eventId;
        } else if (const auto* s = std::get_if<ScalarWork>(&instruction.operands)) {
            if (s->cycles > kScalarCyclesPerTile) tileScalarCycles.push_back(s->cycles);
        }
    }
};

}  // namespace ascendsim::test
