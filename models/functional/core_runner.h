#pragma once
// Runs one block's instruction stream on one core, in program order. Intra-core flags are
// checked as the binary semaphores they are: in program order every WaitFlag must find its flag
// set by an earlier SetFlag, a SetFlag must not hit a flag still set, and a block must end with
// every flag consumed — an unbalanced program would hang or race on hardware.
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "models/functional/core_memory.h"
#include "models/functional/cross_core_semaphores.h"
#include "models/functional/hazard_tracker.h"
#include "models/isa/instruction_stream.h"

namespace ascendsim {

class CoreRunner {
public:
    static constexpr std::size_t kEventIds = 16;

    // `checkHazards` also verifies that flags order every cross-pipe buffer access (HazardTracker).
    CoreRunner(CoreSlot slot, std::unique_ptr<InstructionStream> stream, CoreMemory& memory,
               bool checkHazards = false);

    enum class State { Running, Blocked, Finished };
    // Executes instructions until the stream ends or a CrossCoreWait cannot pass. Returns the
    // state reached and sets `progressed` if at least one instruction executed.
    State run(CrossCoreSemaphores* semaphores, bool& progressed);

    const CoreSlot& slot() const { return slot_; }
    std::string describe() const;  // "AIC of block 3" etc.
    std::uint64_t executedInstructions() const { return executed_; }

private:
    void execute(const Instruction& instruction, CrossCoreSemaphores* semaphores);
    void setFlag(const Flag& flag);
    void waitFlag(const Flag& flag);
    void checkFlagsBalanced() const;
    bool& flagState(const Flag& flag);

    CoreSlot slot_;
    std::unique_ptr<InstructionStream> stream_;
    CoreMemory& memory_;
    std::vector<Instruction> pending_;
    std::size_t position_ = 0;
    std::uint64_t executed_ = 0;
    std::array<bool, kPipeCount * kPipeCount * kEventIds> flags_{};
    std::unique_ptr<HazardTracker> hazards_;
};

}  // namespace ascendsim
