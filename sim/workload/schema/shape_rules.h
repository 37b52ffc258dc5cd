#pragma once
// Shape rules of docs/op-catalog.md, one function per rule family. Each checks its inputs and
// attributes (throwing ShapeProblem naming the offending input/attr) and returns the outputs.
#include <array>
#include <string>
#include <vector>

#include "sim/workload/schema/op_schema.h"

namespace ascendsim::shape_rules {

using Inputs = std::vector<TensorInfo>;
using Outputs = std::vector<InferredTensor>;

// Helpers shared by the rule files.
std::string shapeText(const std::vector<std::int64_t>& shape);
std::string inputField(std::size_t index);
void requireRank(const Inputs& in, std::size_t index, std::size_t rank, const std::string& what);
void requireShape(const Inputs& in, std::size_t index, const std::vector<std::int64_t>& shape,
                  const std::string& why);
void requireSameDtype(const Inputs& in, std::size_t index, std::size_t reference);
void requireChannelVector(const Inputs& in, std::size_t index, std::int64_t channels);
// Logical [N,C,H,W] of a 4-D activation in NCHW, ND or NHWC format.
std::array<std::int64_t, 4> nchwOf(const Inputs& in, std::size_t index);
std::vector<std::int64_t> shapeInFormat(const std::array<std::int64_t, 4>& nchw,
                                        TensorFormat format);
InferredTensor sameAs(const TensorInfo& t);
// The product of t's dims (1 for a scalar).
std::int64_t elementsOf(const TensorInfo& t);
// Output size of a sliding window, catalog rule: (H + pt + pb - d(k-1) - 1) / s + 1.
std::int64_t windowOutput(std::int64_t size, std::int64_t padBefore, std::int64_t padAfter,
                          std::int64_t kernel, std::int64_t stride, std::int64_t dilation);
std::vector<std::int64_t> requireLength(const OpAttributes& attrs, const std::string& key,
                                        std::size_t length);

// Cube ops.
Outputs matMul(const Inputs& in, const OpAttributes& attrs);
Outputs batchMatMul(const Inputs& in, const OpAttributes& attrs);
Outputs conv2D(const Inputs& in, const OpAttributes& attrs);
Outputs conv2DBackpropInput(const Inputs& in, const OpAttributes& attrs);
Outputs conv2DBackpropFilter(const Inputs& in, const OpAttributes& attrs);
Outputs flashAttentionScore(const Inputs& in, const OpAttributes& attrs);
Outputs increFlashAttention(const Inputs& in, const OpAttributes& attrs);

// Element-wise and normalisation vector ops.
Outputs broadcastBinary(const Inputs& in, const OpAttributes& attrs);
Outputs unarySame(const Inputs& in, const OpAttributes& attrs);
Outputs reluGrad(const Inputs& in, const OpAttributes& attrs);
Outputs cast(const Inputs& in, const OpAttributes& attrs);
Outputs softmax(const Inputs& in, const OpAttributes& attrs);
Outputs layerNorm(const Inputs& in, const OpAttributes& attrs);
Outputs rmsNorm(const Inputs& in, const OpAttributes& attrs);
Outputs rotaryMul(const Inputs& in, const OpAttributes& attrs);
Outputs bnInfer(const Inputs& in, const OpAttributes& attrs);
Outputs bnTrainingReduce(const Inputs& in, const OpAttributes& attrs);
Outputs bnTrainingUpdate(const Inputs& in, const OpAttributes& attrs);
Outputs bnTrainingReduceGrad(const Inputs& in, const OpAttributes& attrs);
Outputs bnTrainingUpdateGrad(const Inputs& in, const OpAttributes& attrs);

// Pooling, layout, reduction, optimizer and AI CPU ops.
Outputs pool(const Inputs& in, const OpAttributes& attrs);
Outputs maxPoolGrad(const Inputs& in, const OpAttributes& attrs);
Outputs adaptiveAvgPool2d(const Inputs& in, const OpAttributes& attrs);
Outputs reduce(const Inputs& in, const OpAttributes& attrs);
Outputs transpose(const Inputs& in, const OpAttributes& attrs);
Outputs transData(const Inputs& in, const OpAttributes& attrs);
Outputs gatherV2(const Inputs& in, const OpAttributes& attrs);
Outputs scatterUpdate(const Inputs& in, const OpAttributes& attrs);
Outputs softmaxCrossEntropy(const Inputs& in, const OpAttributes& attrs);
Outputs applyMomentum(const Inputs& in, const OpAttributes& attrs);
Outputs applyAdamW(const Inputs& in, const OpAttributes& attrs);
Outputs applyAdamWV2(const Inputs& in, const OpAttributes& attrs);
Outputs collective(const Inputs& in, const OpAttributes& attrs);
Outputs allGather(const Inputs& in, const OpAttributes& attrs);
Outputs reduceScatter(const Inputs& in, const OpAttributes& attrs);
Outputs allToAll(const Inputs& in, const OpAttributes& attrs);
Outputs allToAllV(const Inputs& in, const OpAttributes& attrs);
Outputs batchSendRecv(const Inputs& in, const OpAttributes& attrs);
Outputs topK(const Inputs& in, const OpAttributes& attrs);
Outputs topKD(const Inputs& in, const OpAttributes& attrs);            // x, assist
Outputs sortValuesIndices(const Inputs& in, const OpAttributes& attrs);  // Sort
Outputs dropOutGenMask(const Inputs& in, const OpAttributes& attrs);     // no inputs; attrs.elements
Outputs nonMaxSuppression(const Inputs& in, const OpAttributes& attrs);
Outputs unique(const Inputs& in, const OpAttributes& attrs);

}  // namespace ascendsim::shape_rules
