#include "sim/host/op_preparation_cache.h"

namespace ascendsim {

OpPreparation OpPreparationCache::prepare(const FrameworkOp& op) {
    // Attribute values are not in FrameworkOp; their count stands in for them in the key.
    const std::string shapeKey = op.npuOpName + '|' + op.inputDims + '|' + op.inputTypes + '|' +
                                 std::to_string(op.attributeCount);
    const bool newType = opTypes_.insert(op.npuOpName).second;
    const bool newShape = shapeKeys_.insert(shapeKey).second;
    if (newType) return OpPreparation::NewOpType;
    return newShape ? OpPreparation::NewShape : OpPreparation::Cached;
}

}  // namespace ascendsim
