#include "models/kernels/attention/attention_vector_steps.h"

#include <algorithm>

#include "models/kernels/tiling/vector_tiling.h"

namespace ascendsim {

void emitAttentionRowBroadcast(ProgramBuilder& b, VectorOp op, std::uint64_t base, std::uint32_t rows, std::uint32_t cols,
                               std::uint64_t strideBytes, std::uint64_t blocks) {
    const std::uint32_t perRepeat = elementsPerRepeat(DataType::Fp32);
    for (std::uint32_t c = 0; c < cols; c += perRepeat) {
        VectorInstr v;
        v.op = op;
        v.dtype = v.srcType = DataType::Fp32;
        v.dst = v.src0 = base + c * 4;
        v.src1 = blocks;
        v.repeats = static_cast<std::uint16_t>(rows);
        v.mask = static_cast<std::uint16_t>(std::min(perRepeat, cols - c));
        v.dstRepeatStride = v.src0RepeatStride = static_cast<std::uint16_t>(strideBytes / kUbBlockBytes);
        v.src1BlockStride = 0;
        v.src1RepeatStride = 1;
        b.vector(v);
    }
}

}  // namespace ascendsim
