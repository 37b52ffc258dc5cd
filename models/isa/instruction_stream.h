#pragma once
// A block's program, generated lazily (a tile at a time) so memory stays flat for big models.
#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

#include "models/isa/instruction.h"

namespace ascendsim {

class InstructionStream {
public:
    virtual ~InstructionStream() = default;
    // Appends the next chunk of the program to `out`. Returns false once nothing was appended
    // because the program has ended. Must not return true without appending.
    virtual bool next(std::vector<Instruction>& out) = 0;
};

// A complete program held in memory: for tests, microbenchmarks and small kernels.
class FixedInstructionStream final : public InstructionStream {
public:
    explicit FixedInstructionStream(std::vector<Instruction> program) : program_(std::move(program)) {}
    bool next(std::vector<Instruction>& out) override {
        if (done_ || program_.empty()) return false;
        out.insert(out.end(), program_.begin(), program_.end());
        done_ = true;
        return true;
    }

private:
    std::vector<Instruction> program_;
    bool done_ = false;
};

}  // namespace ascendsim
