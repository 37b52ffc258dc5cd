// What the two tile plans of the NCHW batch-norm application kernels share (batch_norm_apply.h):
// the per-channel coefficients, computed in fp32 for all of a block's channels at once, and a
// tile's loads, apply steps, cast and store.
#include "models/kernels/normalization/batch_norm_apply.h"

#include <algorithm>

namespace ascendsim {

void emitBnCoefficients(const BnApplyLayout& l, std::uint64_t first, std::uint64_t count, TileCode& code) {
    std::vector<Instruction>& v = code.compute;
    for (std::size_t k = 0; k < l.params.size(); ++k) {
        const DataType type = l.paramTypes[k];
        const std::uint64_t staged = type == DataType::Fp32 ? l.param(k) : l.paramStage + k * l.stride();
        code.load.push_back(Instruction::move({.src = MemSpace::GM, .dst = MemSpace::UB,
                                               .srcAddr = l.params[k] + first * bytesOf(type), .dstAddr = staged,
                                               .burstBytes = static_cast<std::uint32_t>(count * bytesOf(type)),
                                               .srcType = type, .dstType = type}));
        if (type != DataType::Fp32)
            emitVectorRange(v, VectorOp::Cast, DataType::Fp32, {.dst = l.param(k), .src0 = staged}, count, 0.0f, type);
    }
    auto op = [&](VectorOp o, std::uint64_t dst, std::uint64_t s0, std::uint64_t s1, float scalar = 0.0f) {
        emitVectorRange(v, o, DataType::Fp32, {.dst = dst, .src0 = s0, .src1 = s1}, count, scalar);
    };
    const std::uint64_t scratch = l.param(l.params.size());
    if (l.kind == BnApplyKind::ReduceGrad) {  // params: diff_scale, diff_offset, scale, mean, variance
        op(VectorOp::Adds, l.param(4), l.param(4), 0, l.epsilon);
        op(VectorOp::Rsqrt, l.param(4), l.param(4), 0);                         // rstd
        op(VectorOp::Mul, l.coef(kCoefP), l.param(2), l.param(4));              // p = scale·rstd
        op(VectorOp::Mul, scratch, l.param(4), l.param(0));                     // rstd·diff_scale
        op(VectorOp::Mul, scratch, scratch, l.coef(kCoefP));
        op(VectorOp::Muls, l.coef(kCoefQ), scratch, 0, -l.inverseCount);       // q = −p·rstd·diff_scale/M
        op(VectorOp::Mul, scratch, l.param(1), l.coef(kCoefP));
        op(VectorOp::Muls, l.coef(kCoefR), scratch, 0, -l.inverseCount);       // r = −p·diff_offset/M
        op(VectorOp::Copy, l.coef(kCoefMean), l.param(3), 0);
        return;
    }
    std::uint64_t mean = l.param(2), variance = l.param(3);                     // Infer: scale, offset, mean, var
    if (l.kind == BnApplyKind::TrainingUpdate) {                                // sum, square_sum, scale, offset
        mean = l.param(0), variance = l.param(1);
        op(VectorOp::Muls, mean, mean, 0, l.inverseCount);
        op(VectorOp::Muls, variance, variance, 0, l.inverseCount);
        op(VectorOp::Mul, scratch, mean, mean);
        op(VectorOp::Sub, variance, variance, scratch);                         // E[x²] − mean²
    }
    const std::uint64_t scale = l.param(l.kind == BnApplyKind::TrainingUpdate ? 2 : 0);
    const std::uint64_t offset = l.param(l.kind == BnApplyKind::TrainingUpdate ? 3 : 1);
    op(VectorOp::Adds, variance, variance, 0, l.epsilon);
    op(VectorOp::Rsqrt, variance, variance, 0);
    op(VectorOp::Mul, l.coef(kCoefA), scale, variance);                         // a = scale·rstd
    op(VectorOp::Mul, scratch, mean, l.coef(kCoefA));
    op(VectorOp::Sub, l.coef(kCoefB), offset, scratch);                         // b = offset − mean·a
}

GroupSpan groupsTouched(UnitRange units, std::uint64_t unitsPerGroup) {
    if (units.size() == 0) return {};
    const std::uint64_t first = units.begin / unitsPerGroup;
    return {first, (units.end - 1) / unitsPerGroup + 1 - first};
}

namespace {

Instruction rowsMove(const BnApplyLayout& l, const BnTileRows& rows, DataType type, std::uint64_t gm, std::uint64_t ub,
                     bool toUb) {
    const std::uint64_t eb = bytesOf(type), rowBytes = rows.rowElements * eb;
    DataMove m{.src = toUb ? MemSpace::GM : MemSpace::UB, .dst = toUb ? MemSpace::UB : MemSpace::GM,
               .srcType = type, .dstType = type};
    const std::uint64_t gmAddr = gm + rows.gmElement * eb;
    m.srcAddr = toUb ? gmAddr : ub;
    m.dstAddr = toUb ? ub : gmAddr;
    m.burstCount = static_cast<std::uint32_t>(rows.rows);
    m.burstBytes = static_cast<std::uint32_t>(rowBytes);
    const auto gmGap = static_cast<std::uint32_t>(l.c * l.planeElements * eb - rowBytes);
    const auto ubGap = static_cast<std::uint32_t>(rows.ubPitchElements * eb - rowBytes);
    m.srcGapBytes = toUb ? gmGap : ubGap;
    m.dstGapBytes = toUb ? ubGap : gmGap;
    return Instruction::move(m);
}

}  // namespace

std::uint64_t emitBnLoad(const BnApplyLayout& l, const BnTileRows& rows, std::uint64_t gm, std::uint64_t stage,
                         std::uint64_t f32, std::uint32_t half, TileCode& code) {
    const std::uint64_t staged = stage + half * l.stageStride;
    code.load.push_back(rowsMove(l, rows, l.inType, gm, staged, true));
    if (l.inType == DataType::Fp32) return staged;
    emitVectorRange(code.compute, VectorOp::Cast, DataType::Fp32, {.dst = f32, .src0 = staged}, rows.count, 0.0f,
                    l.inType);
    return f32;
}

void emitBnApply(const BnApplyLayout& l, const BnTileRows& rows, std::uint64_t x, std::uint32_t half,
                 const BnCoefficientStep& coefStep, TileCode& code) {
    const std::uint64_t out = l.outStage + half * l.outStride;
    const bool direct = l.outType == DataType::Fp32;  // the last step writes the output staging
    std::uint64_t result = l.a;
    if (l.kind == BnApplyKind::ReduceGrad) {
        const std::uint64_t dy = emitBnLoad(l, rows, l.dy, l.dyStage, l.b, half, code);
        coefStep(VectorOp::Sub, l.t, x, kCoefMean);
        coefStep(VectorOp::Mul, l.a, l.t, kCoefQ);
        coefStep(VectorOp::Mul, l.w, dy, kCoefP);
        emitVectorRange(code.compute, VectorOp::Add, DataType::Fp32, {.dst = l.b, .src0 = l.a, .src1 = l.w},
                        rows.count);
        coefStep(VectorOp::Add, direct ? out : l.w, l.b, kCoefR);
        result = l.w;
    } else {
        coefStep(VectorOp::Mul, l.t, x, kCoefA);
        coefStep(VectorOp::Add, direct ? out : l.a, l.t, kCoefB);
    }
    if (!direct)
        emitVectorRange(code.compute, VectorOp::Cast, l.outType, {.dst = out, .src0 = result}, rows.count, 0.0f,
                        DataType::Fp32);
    code.store.push_back(rowsMove(l, rows, l.outType, l.out, out, false));
    code.scalarCycles = static_cast<std::uint32_t>(rows.rows);
}

}  // namespace ascendsim
