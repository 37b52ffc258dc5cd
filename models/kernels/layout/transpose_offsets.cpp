#include "models/kernels/layout/transpose_offsets.h"

#include <algorithm>

#include "models/kernels/tiling/vector_tiling.h"

namespace ascendsim {

void emitTransposeOffsets(std::vector<Instruction>& code, std::uint64_t table, std::uint64_t ramp,
                          std::uint64_t scratch, std::uint64_t count, std::uint64_t columns,
                          std::uint64_t sourcePitch, std::uint64_t elementBytes) {
    const DataType f32 = DataType::Fp32, i32 = DataType::Int32;
    // ramp = 0, 1, ..., count−1: the first block by shrinking masks, then by doubling.
    for (std::uint64_t j = elementsPerBlock(f32); j-- > 0;)
        emitVectorRange(code, VectorOp::Duplicate, f32, {.dst = ramp}, j + 1,
                        static_cast<float>(j));
    for (std::uint64_t filled = elementsPerBlock(f32); filled < count; filled *= 2)
        emitVectorRange(code, VectorOp::Adds, f32, {.dst = ramp + filled * 4, .src0 = ramp},
                        std::min(filled, count - filled), static_cast<float>(filled));
    // r = floor(k / columns): (k + 0.5) / columns truncated by a cast to int32 and back.
    const std::uint64_t r = scratch;
    const auto divisor = static_cast<float>(columns);
    emitVectorRange(code, VectorOp::Muls, f32, {.dst = r, .src0 = ramp}, count, 1.0f / divisor);
    emitVectorRange(code, VectorOp::Adds, f32, {.dst = r, .src0 = r}, count, 0.5f / divisor);
    emitVectorRange(code, VectorOp::Cast, i32, {.dst = r, .src0 = r}, count, 0.0f, f32);
    emitVectorRange(code, VectorOp::Cast, f32, {.dst = r, .src0 = r}, count, 0.0f, i32);
    // table = (k − r·columns)·sourcePitch·bytes + r·bytes
    emitVectorRange(code, VectorOp::Muls, f32, {.dst = table, .src0 = r}, count, -divisor);
    emitVectorRange(code, VectorOp::Add, f32, {.dst = table, .src0 = table, .src1 = ramp}, count);
    emitVectorRange(code, VectorOp::Muls, f32, {.dst = table, .src0 = table}, count,
                    static_cast<float>(sourcePitch * elementBytes));
    emitVectorRange(code, VectorOp::Muls, f32, {.dst = r, .src0 = r}, count,
                    static_cast<float>(elementBytes));
    emitVectorRange(code, VectorOp::Add, f32, {.dst = table, .src0 = table, .src1 = r}, count);
    emitVectorRange(code, VectorOp::Cast, i32, {.dst = table, .src0 = table}, count, 0.0f, f32);
}

}  // namespace ascendsim
