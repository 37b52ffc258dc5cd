#include "models/kernels/layout/transpose/transpose_offsets.h"

#include <algorithm>

#include "models/kernels/tiling/vector_tiling.h"

namespace ascendsim {

namespace {

constexpr DataType f32 = DataType::Fp32, i32 = DataType::Int32;

// ramp = 0, 1, ..., count−1: the first block by shrinking masks, then by doubling.
void emitRamp(std::vector<Instruction>& code, std::uint64_t ramp, std::uint64_t count) {
    for (std::uint64_t j = elementsPerBlock(f32); j-- > 0;)
        emitVectorRange(code, VectorOp::Duplicate, f32, {.dst = ramp}, j + 1, static_cast<float>(j));
    for (std::uint64_t filled = elementsPerBlock(f32); filled < count; filled *= 2)
        emitVectorRange(code, VectorOp::Adds, f32, {.dst = ramp + filled * 4, .src0 = ramp},
                        std::min(filled, count - filled), static_cast<float>(filled));
}

// q = floor(k / divisor) of the fp32 integers k at `from`: (k + 0.5) / divisor truncated by a cast
// to int32 and back.
void emitFloorDivide(std::vector<Instruction>& code, std::uint64_t q, std::uint64_t from, std::uint64_t count,
                     std::uint64_t divisor) {
    const auto d = static_cast<float>(divisor);
    emitVectorRange(code, VectorOp::Muls, f32, {.dst = q, .src0 = from}, count, 1.0f / d);
    emitVectorRange(code, VectorOp::Adds, f32, {.dst = q, .src0 = q}, count, 0.5f / d);
    emitVectorRange(code, VectorOp::Cast, i32, {.dst = q, .src0 = q}, count, 0.0f, f32);
    emitVectorRange(code, VectorOp::Cast, f32, {.dst = q, .src0 = q}, count, 0.0f, i32);
}

}  // namespace

void emitTransposeOffsets(std::vector<Instruction>& code, std::uint64_t table, std::uint64_t ramp,
                          std::uint64_t scratch, std::uint64_t count, std::uint64_t columns,
                          std::uint64_t sourcePitch, std::uint64_t elementBytes) {
    emitRamp(code, ramp, count);
    // r = floor(k / columns)
    const std::uint64_t r = scratch;
    const auto divisor = static_cast<float>(columns);
    emitFloorDivide(code, r, ramp, count, columns);
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

void emitPackedTransposeOffsets(std::vector<Instruction>& code, std::uint64_t table, std::uint64_t ramp,
                                std::uint64_t scratch, std::uint64_t count, std::uint64_t rows,
                                std::uint64_t columns, std::uint64_t elementBytes) {
    const std::uint64_t matrix = rows * columns;
    emitRamp(code, ramp, count);
    // b = floor(k / matrix) into table; ramp = k − b·matrix (the index inside the matrix)
    emitFloorDivide(code, table, ramp, count, matrix);
    emitVectorRange(code, VectorOp::Muls, f32, {.dst = scratch, .src0 = table}, count, -static_cast<float>(matrix));
    emitVectorRange(code, VectorOp::Add, f32, {.dst = ramp, .src0 = ramp, .src1 = scratch}, count);
    // With i = r·columns + c: (c·rows + r)·bytes = i·rows·bytes + r·(1 − columns·rows)·bytes, so
    // table = b·matrix·bytes + i·rows·bytes + r·(1 − matrix)·bytes, every term an exact integer.
    emitVectorRange(code, VectorOp::Muls, f32, {.dst = table, .src0 = table}, count,
                    static_cast<float>(matrix * elementBytes));
    emitFloorDivide(code, scratch, ramp, count, columns);
    emitVectorRange(code, VectorOp::Muls, f32, {.dst = scratch, .src0 = scratch}, count,
                    (1.0f - static_cast<float>(matrix)) * static_cast<float>(elementBytes));
    emitVectorRange(code, VectorOp::Muls, f32, {.dst = ramp, .src0 = ramp}, count,
                    static_cast<float>(rows * elementBytes));
    emitVectorRange(code, VectorOp::Add, f32, {.dst = table, .src0 = table, .src1 = ramp}, count);
    emitVectorRange(code, VectorOp::Add, f32, {.dst = table, .src0 = table, .src1 = scratch}, count);
    emitVectorRange(code, VectorOp::Cast, i32, {.dst = table, .src0 = table}, count, 0.0f, f32);
}

}  // namespace ascendsim
