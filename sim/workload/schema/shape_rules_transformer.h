#pragma once
// Shape rules of the ops the transformer training samples use (docs/op-catalog.md, "Ops of the
// LLM samples"), kept apart from the older rule files.
#include "sim/workload/schema/shape_rules.h"

namespace ascendsim::shape_rules {

Outputs compare(const Inputs& in, const OpAttributes& attrs);
Outputs pows(const Inputs& in, const OpAttributes& attrs);
Outputs swiGlu(const Inputs& in, const OpAttributes& attrs);
Outputs swiGluGrad(const Inputs& in, const OpAttributes& attrs);
Outputs rotaryPositionEmbedding(const Inputs& in, const OpAttributes& attrs);
Outputs slice(const Inputs& in, const OpAttributes& attrs);
Outputs concatD(const Inputs& in, const OpAttributes& attrs);
Outputs flashAttentionScoreGrad(const Inputs& in, const OpAttributes& attrs);
Outputs rmsNormGrad(const Inputs& in, const OpAttributes& attrs);
Outputs lpNorm(const Inputs& in, const OpAttributes& attrs);
Outputs argMaxWithValue(const Inputs& in, const OpAttributes& attrs);
Outputs embeddingDenseGrad(const Inputs& in, const OpAttributes& attrs);
Outputs range(const Inputs& in, const OpAttributes& attrs);
Outputs logical(const Inputs& in, const OpAttributes& attrs);
Outputs broadcastTo(const Inputs& in, const OpAttributes& attrs);
// Foreach ops: one output per list entry, shaped as that entry.
Outputs foreachSame(const Inputs& in, const OpAttributes& attrs);
Outputs foreachAddList(const Inputs& in, const OpAttributes& attrs);
// Advanced indexing of single elements: one int32/int64 index tensor per dim of x (Index: x,
// indices... → y [I]; IndexPutV2: self, values [I], indices... → self).
Outputs advancedIndex(const Inputs& in, const OpAttributes& attrs);
Outputs indexPut(const Inputs& in, const OpAttributes& attrs);
// NonZero: x → y [elements(x), rank(x)] int64, the upper bound of the data-dependent count
// (a declared y may reshape it).
Outputs nonZero(const Inputs& in, const OpAttributes& attrs);

}  // namespace ascendsim::shape_rules
