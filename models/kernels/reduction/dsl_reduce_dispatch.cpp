#include "models/kernels/reduction/dsl_reduce_dispatch.h"

#include <vector>

#include "models/kernels/tiling/chained_stream.h"

namespace ascendsim {

void prependDslReduceDispatch(LoweredKernel& kernel, const ChipConfig& chip) {
    if (chip.organisation != CoreOrganisation::Split) return;
    kernel.codeBytes = kDslReduceCodeBytes;
    prependToEveryBlock(kernel, [](const BlockProgramRequest&) {
        return std::vector<Instruction>{Instruction::scalar(kDslReduceDispatchScalarCycles)};
    });
}

}  // namespace ascendsim
