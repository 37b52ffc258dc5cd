#include "models/kernels/reduction/dsl_reduce_dispatch.h"

#include <vector>

#include "models/kernels/tiling/chained_stream.h"

namespace ascendsim {

std::uint32_t dslReduceCodeBytes(const ChipConfig& chip) {
    return chip.organisation == CoreOrganisation::Split ? kDslReduceCodeBytes : 0;
}

void prependDslReduceDispatch(LoweredKernel& kernel, const ChipConfig& chip) {
    if (chip.organisation != CoreOrganisation::Split) return;
    kernel.codeBytes = dslReduceCodeBytes(chip);
    prependToEveryBlock(kernel, [](const BlockProgramRequest&) {
        return std::vector<Instruction>{Instruction::scalar(kDslReduceDispatchScalarCycles)};
    });
}

}  // namespace ascendsim
