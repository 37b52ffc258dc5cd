#include "sim/host/op_preparation_cache.h"

namespace ascendsim {

OpCallState OpPreparationCache::call(const FrameworkOp& op) {
    // Attribute values are not in FrameworkOp; their count stands in for them in the key.
    const std::string shapeKey = op.npuOpName + '|' + op.inputDims + '|' + op.inputTypes + '|' +
                                 std::to_string(op.attributeCount);
    const bool newType = opTypes_.insert(op.npuOpName).second;
    const bool newShape = shapeKeys_.insert(shapeKey).second;
    OpCallState state;
    if (newType)
        state.preparation = OpPreparation::NewOpType;
    else if (newShape)
        state.preparation = OpPreparation::NewShape;
    state.cold = warmTypes_.insert(op.npuOpName).second;
    return state;
}

}  // namespace ascendsim
