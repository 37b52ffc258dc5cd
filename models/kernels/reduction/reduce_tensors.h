#pragma once
// What the ReduceSum/Mean/Max kernels take from the op: x's and y's dtype and address, and the
// elementwise op that folds two partial results (vadd for sums and means, vmax for maxima).
#include "models/kernels/kernel_registry.h"

namespace ascendsim {

struct ReduceTensors {
    VectorOp fold = VectorOp::Add;
    DataType inType = DataType::Fp32, outType = DataType::Fp32;
    std::uint64_t x = 0, y = 0;
};

inline ReduceTensors reduceTensors(const OpInstance& op, VectorOp reduceOp) {
    return {.fold = reduceOp == VectorOp::ReduceMax ? VectorOp::Max : VectorOp::Add,
            .inType = op.inputs[0].dtype, .outType = op.outputs[0].dtype,
            .x = op.inputs[0].deviceAddr, .y = op.outputs[0].deviceAddr};
}

}  // namespace ascendsim
