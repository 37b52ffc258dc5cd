#pragma once
// How a real kernel row becomes a catalog op (docs/op-catalog.md): one table, keyed by the CANN
// type kernel_details prints (MatMulV3, Conv2DBackpropFilterD, ApplyAdamWV2, ...), saying which
// catalog type runs it, which family the fidelity tables count it under, and which builder turns
// the recorded tensors into the op's inputs, outputs and attributes (transposes, strides, pads,
// axes and permutations are inferred from the shapes; private formats converted back). A type
// the catalog gains later is one more line in kReplayRules (replay_op_rules.cpp).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "models/kernels/op_instance.h"
#include "sim/replay/input/real_tensors.h"

namespace ascendsim {

struct RealTensors {
    std::vector<RealTensor> inputs;
    std::vector<RealTensor> outputs;
};

// Fills op.inputs / op.outputs / op.attrs from the recorded tensors; throws UnreplayableKernel
// with the reason when the row cannot be expressed.
using ReplayOpBuilder = void (*)(const RealTensors& tensors, OpInstance& op);

struct ReplayRule {
    std::string_view cannType;     // kernel_details Type
    std::string_view catalogType;  // the simulator's op type
    std::string_view family;       // fidelity table row
    ReplayOpBuilder build;
};

const ReplayRule* findReplayRule(std::string_view cannType);
const std::vector<ReplayRule>& replayRules();

// The family a type is reported under: its rule's, else the type itself.
std::string familyOf(std::string_view cannType);

// The catalog op for one real kernel row, with the real block dim forced. Throws
// UnreplayableKernel when the type has no rule or the builder refuses.
OpInstance replayOp(const RealKernel& kernel);

// Builders (replay_op_rules_*.cpp).
void buildAsRecorded(const RealTensors& t, OpInstance& op);      // every tensor, logical shapes
void buildUnary(const RealTensors& t, OpInstance& op);           // x → y (extra outputs dropped)
void buildBinary(const RealTensors& t, OpInstance& op);          // x1, x2 → y
void buildCast(const RealTensors& t, OpInstance& op);            // x → y, dst_type from y
void buildNorm(const RealTensors& t, OpInstance& op);            // x, gamma[, beta] → y
void buildReduce(const RealTensors& t, OpInstance& op);          // axes from the shapes
void buildTranspose(const RealTensors& t, OpInstance& op);       // perm from the shapes
void buildTransData(const RealTensors& t, OpInstance& op);       // dst_format from y
void buildGather(const RealTensors& t, OpInstance& op);          // table, indices → y
void buildApplyAdamWV2(const RealTensors& t, OpInstance& op);    // var, m, v, grad, step
void buildMatMul(const RealTensors& t, OpInstance& op);          // transposes from the shapes
void buildTbeMatMul(const RealTensors& t, OpInstance& op);       // MatMul, marked TBE's kernel (MatMulV2)
void buildConv2D(const RealTensors& t, OpInstance& op);          // strides, pads from the shapes
void buildConv2DBackpropInput(const RealTensors& t, OpInstance& op);
void buildConv2DBackpropFilter(const RealTensors& t, OpInstance& op);
void buildRotary(const RealTensors& t, OpInstance& op);          // x, cos, sin → y (no dcos/dsin)
void buildSlice(const RealTensors& t, OpInstance& op);           // size from y, offsets 0
void buildConcat(const RealTensors& t, OpInstance& op);          // concat_dim from the shapes
void buildFlashAttention(const RealTensors& t, OpInstance& op);  // SBH/BSH → [B,N,S,D]
void buildFlashAttentionGrad(const RealTensors& t, OpInstance& op);
void buildArgMaxWithValue(const RealTensors& t, OpInstance& op);  // x → indices, values; dimension from the shapes
void buildEmbeddingDenseGrad(const RealTensors& t, OpInstance& op);  // grad, sort ids, positions; num_weights from y
void buildRange(const RealTensors& t, OpInstance& op);           // host scalars dropped; limit from y
void buildBroadcastTo(const RealTensors& t, OpInstance& op);     // x → y; shape from y, the shape tensor dropped
void buildMaxPoolWithArgmax(const RealTensors& t, OpInstance& op);  // ksize, strides from the shapes and the mask
void buildMaxPoolGradWithArgmax(const RealTensors& t, OpInstance& op);
void buildMemSet(const RealTensors& t, OpInstance& op);          // the owner's output, zeroed in place
void buildForeach(const RealTensors& t, OpInstance& op);         // the lists by the output count; alpha/scalar ≠ 1
void buildSortOrTopK(const RealTensors& t, OpInstance& op);      // x[, TopKD's assist] → values, indices; k from y
void buildOutputOnly(const RealTensors& t, OpInstance& op);      // y only; host-side inputs dropped
void buildAdvancedIndex(const RealTensors& t, OpInstance& op);   // x | self, values; the index tensors (sizes, strides dropped)

}  // namespace ascendsim
