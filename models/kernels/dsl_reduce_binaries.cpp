#include "models/kernels/dsl_reduce_binaries.h"

#include <algorithm>
#include <array>

namespace ascendsim {

bool isDslReduceOpType(std::string_view opType) {
    // The reduce ops of CANN's op library whose dynamic kernels call the DSL's reduce schedule
    // (tbe.dsl reduce_sum / reduce_max / ... under auto_schedule; LpNormV2 and the log-softmax
    // pair reduce over their last axis the same way). The static "D" variants (ReduceSumD on the
    // 910A) compile one shape per binary and are not in this list.
    static constexpr std::array<std::string_view, 7> kTypes = {
        "ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "LpNormV2", "LogSoftmaxV2", "LogSoftmaxGrad"};
    return std::find(kTypes.begin(), kTypes.end(), opType) != kTypes.end();
}

std::uint32_t codeBytesOf(std::string_view opType, const ICacheConfig& icache) {
    return isDslReduceOpType(opType) ? icache.dslReduceCodeBytes : 0;
}

BinaryCode binaryCodeOf(std::string_view opType, const ChipConfig& chip) {
    if (!isDslReduceOpType(opType)) return {};
    return {codeBytesOf(opType, chip.icache), chip.dslReducePrologueScalarCycles};
}

}  // namespace ascendsim
