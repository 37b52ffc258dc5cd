#pragma once
// One block program made of two: all of `first`, then all of `second` (a kernel's main loop and
// a tail phase after a cross-core barrier, e.g. RmsNormGrad's dgamma reduction).
#include <memory>

#include "models/isa/instruction_stream.h"

namespace ascendsim {

class ChainedStream final : public InstructionStream {
public:
    ChainedStream(std::unique_ptr<InstructionStream> first, std::unique_ptr<InstructionStream> second)
        : first_(std::move(first)), second_(std::move(second)) {}
    bool next(std::vector<Instruction>& out) override {
        if (first_ && first_->next(out)) return true;
        first_.reset();
        return second_->next(out);
    }

private:
    std::unique_ptr<InstructionStream> first_, second_;
};

}  // namespace ascendsim
