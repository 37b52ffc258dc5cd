#include "models/functional/core_runner.h"

#include <stdexcept>
#include <string>

#include "models/functional/data_move_semantics.h"
#include "models/functional/img2col_semantics.h"
#include "models/functional/mmad_semantics.h"
#include "models/functional/vector_semantics.h"

namespace ascendsim {

namespace {
std::string flagName(const Flag& flag) {
    return std::string(pipeName(flag.src)) + "->" + std::string(pipeName(flag.dst)) + " event " +
           std::to_string(flag.eventId);
}

void checkVectorAlignment(const VectorInstr& v, const CoreMemory& memory) {
    memory.checkAligned(MemSpace::UB, v.dst, vectorOpName(v.op));
    memory.checkAligned(MemSpace::UB, v.src0, vectorOpName(v.op));
    memory.checkAligned(MemSpace::UB, v.src1, vectorOpName(v.op));
}
}  // namespace

CoreRunner::CoreRunner(CoreSlot slot, std::unique_ptr<InstructionStream> stream, CoreMemory& memory,
                       bool checkHazards)
    : slot_(slot), stream_(std::move(stream)), memory_(memory),
      hazards_(checkHazards ? std::make_unique<HazardTracker>() : nullptr) {
    if (!stream_) throw std::runtime_error("FunctionalMachine: program factory returned no stream");
}

std::string CoreRunner::describe() const {
    std::string text = memory_.describe();
    text.append(" of block ").append(std::to_string(slot_.group));
    if (slot_.kind == CoreKind::Vector) text.append(".").append(std::to_string(slot_.subBlock));
    return text;
}

bool& CoreRunner::flagState(const Flag& flag) {
    if (flag.eventId >= kEventIds || flag.src == Pipe::All || flag.dst == Pipe::All)
        throw std::runtime_error("flag " + flagName(flag) + " is not a hardware event");
    return flags_[(pipeIndex(flag.src) * kPipeCount + pipeIndex(flag.dst)) * kEventIds + flag.eventId];
}

void CoreRunner::setFlag(const Flag& flag) {
    bool& state = flagState(flag);
    if (state) throw std::runtime_error("SetFlag " + flagName(flag) + " while the flag is still set");
    state = true;
}

void CoreRunner::waitFlag(const Flag& flag) {
    bool& state = flagState(flag);
    if (!state)
        throw std::runtime_error("WaitFlag " + flagName(flag) + " without an earlier SetFlag");
    state = false;
}

void CoreRunner::checkFlagsBalanced() const {
    for (std::size_t i = 0; i < flags_.size(); ++i) {
        if (!flags_[i]) continue;
        const Flag flag{static_cast<Pipe>(i / kEventIds / kPipeCount),
                        static_cast<Pipe>((i / kEventIds) % kPipeCount),
                        static_cast<std::uint8_t>(i % kEventIds)};
        throw std::runtime_error(describe() + " ended with flag " + flagName(flag) + " still set");
    }
}

void CoreRunner::execute(const Instruction& instruction, CrossCoreSemaphores* semaphores) {
    switch (instruction.opcode) {
        case Opcode::DataMove: {
            const auto& move = std::get<DataMove>(instruction.operands);
            // Coupled (200x) cores have no FixPipe (hardware.md §2.1–§2.3): L0C leaves through
            // UB on the vector pipe, so a FIX move there is a lowering bug the device would reject.
            if (memory_.kind() == CoreKind::Coupled && instruction.pipe == Pipe::FixPipe)
                throw std::runtime_error("DataMove " + pathName(move.src, move.dst) +
                                         ": a coupled AI core has no FixPipe path");
            executeDataMove(move, memory_);
            break;
        }
        case Opcode::Img2Col:
            executeImg2Col(std::get<Img2ColLoad>(instruction.operands), memory_);
            break;
        case Opcode::Mmad:
            executeMmad(std::get<Mmad>(instruction.operands), memory_);
            break;
        case Opcode::Vector: {
            const auto& vector = std::get<VectorInstr>(instruction.operands);
            checkVectorAlignment(vector, memory_);
            try {
                executeVectorInstruction(vector, memory_.buffer(MemSpace::UB, vectorOpName(vector.op)));
            } catch (const std::out_of_range& error) {
                throw std::runtime_error(error.what());
            } catch (const std::invalid_argument& error) {
                throw std::runtime_error(error.what());
            }
            break;
        }
        case Opcode::SetFlag:
            setFlag(std::get<Flag>(instruction.operands));
            break;
        case Opcode::WaitFlag:
            waitFlag(std::get<Flag>(instruction.operands));
            break;
        case Opcode::CrossCoreSet:
            if (!semaphores) throw std::runtime_error("CrossCoreSetFlag: cross-core flags exist on the split (220x) organisation only");
            semaphores->set(slot_, std::get<CrossCoreFlag>(instruction.operands));
            break;
        case Opcode::Scalar:
        case Opcode::Barrier:
        case Opcode::CrossCoreWait:  // handled by run()
            break;
    }
}

CoreRunner::State CoreRunner::run(CrossCoreSemaphores* semaphores, bool& progressed) {
    progressed = false;
    for (;;) {
        if (position_ == pending_.size()) {
            pending_.clear();
            position_ = 0;
            if (!stream_->next(pending_)) {
                checkFlagsBalanced();
                return State::Finished;
            }
            continue;
        }
        const Instruction& instruction = pending_[position_];
        if (instruction.opcode == Opcode::CrossCoreWait) {
            if (!semaphores) throw std::runtime_error("CrossCoreWaitFlag: cross-core flags exist on the split (220x) organisation only");
            if (!semaphores->tryWait(slot_, std::get<CrossCoreFlag>(instruction.operands)))
                return State::Blocked;
            if (hazards_) hazards_->execute(instruction);
        } else {
            try {
                if (hazards_) hazards_->execute(instruction);
                execute(instruction, semaphores);
            } catch (const std::runtime_error& error) {
                throw std::runtime_error(describe() + ", instruction " + std::to_string(executed_) +
                                         ": " + error.what());
            }
        }
        ++position_;
        ++executed_;
        progressed = true;
    }
}

}  // namespace ascendsim
