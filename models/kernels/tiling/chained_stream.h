#pragma once
// One block program made of two: all of `first`, then all of `second` (a kernel's main loop and
// a tail phase after a cross-core barrier, e.g. RmsNormGrad's dgamma reduction; a block's prologue
// and its work, prependToEveryBlock).
#include <memory>
#include <utility>
#include <vector>

#include "models/isa/instruction_stream.h"
#include "models/kernels/kernel_registry.h"

namespace ascendsim {

class ChainedStream final : public InstructionStream {
public:
    ChainedStream(std::unique_ptr<InstructionStream> first, std::unique_ptr<InstructionStream> second)
        : first_(std::move(first)), second_(std::move(second)) {}
    bool next(std::vector<Instruction>& out) override {
        if (first_ && first_->next(out)) return true;
        first_.reset();
        return second_ && second_->next(out);
    }

private:
    std::unique_ptr<InstructionStream> first_, second_;
};

// Prefixes every block of `kernel` with the instructions `prologueOf(request)` returns (the reads
// of a TIK kernel's tiling, a dynamic binary's dispatch), then runs the kernel's own program.
template <typename PrologueOf>
void prependToEveryBlock(LoweredKernel& kernel, PrologueOf prologueOf) {
    ProgramFactory work = std::move(kernel.program);
    kernel.program = [prologueOf = std::move(prologueOf), work](const BlockProgramRequest& request)
        -> std::unique_ptr<InstructionStream> {
        return std::make_unique<ChainedStream>(std::make_unique<FixedInstructionStream>(prologueOf(request)),
                                               work ? work(request) : nullptr);
    };
}

}  // namespace ascendsim
