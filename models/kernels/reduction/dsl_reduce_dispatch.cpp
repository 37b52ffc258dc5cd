#include "models/kernels/reduction/dsl_reduce_dispatch.h"

#include <memory>
#include <utility>

#include "models/kernels/tiling/chained_stream.h"

namespace ascendsim {

void prependDslReduceDispatch(LoweredKernel& kernel, const ChipConfig& chip) {
    if (chip.organisation != CoreOrganisation::Split) return;
    ProgramFactory work = std::move(kernel.program);
    kernel.program = [work](const BlockProgramRequest& request) -> std::unique_ptr<InstructionStream> {
        std::vector<Instruction> dispatch{Instruction::scalar(kDslReduceDispatchScalarCycles)};
        return std::make_unique<ChainedStream>(std::make_unique<FixedInstructionStream>(std::move(dispatch)),
                                               work(request));
    };
}

}  // namespace ascendsim
