// Per-channel coefficients of the NCHW batch-norm application kernels (batch_norm_apply.h),
// computed in fp32 for all of a block's channels at once, once per block.
#include "models/kernels/batch_norm_apply.h"

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

}  // namespace ascendsim
