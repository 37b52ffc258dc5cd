#include "models/kernels/tiling/lane_numbers.h"

#include <algorithm>

#include "models/kernels/tiling/vector_tiling.h"

namespace ascendsim {

void emitLaneNumbers(std::vector<Instruction>& out, std::uint64_t dst, std::uint64_t count, std::uint64_t table) {
    constexpr DataType kF32 = DataType::Fp32;
    emitBlockOffsetTable(out, kF32, table, 64);
    emitVectorRange(out, VectorOp::Cast, kF32, {.dst = dst, .src0 = table}, 64, 0.0f, DataType::Int32);
    // One block per repeat (mask 8, repeat stride 1 block): the maximum of block k is 4k.
    out.push_back(Instruction::vector(VectorInstr{.op = VectorOp::ReduceMax, .dtype = kF32, .srcType = kF32, .dst = table,
                                                  .src0 = dst, .repeats = 8, .mask = 8, .src0RepeatStride = 1}));
    emitVectorRange(out, VectorOp::Muls, kF32, {.dst = dst, .src0 = table}, 8, 0.25f);
    for (std::uint64_t n = 8; n < count; n *= 2)
        emitVectorRange(out, VectorOp::Adds, kF32, {.dst = dst + n * 4, .src0 = dst}, std::min(n, count - n), static_cast<float>(n));
}

}  // namespace ascendsim
