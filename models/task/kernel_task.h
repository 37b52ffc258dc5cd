#pragma once
// What the host hands the device: one kernel launch, its blocks and how to build each block's
// program. Lowering (models/kernels) produces these; the TaskScheduler runs them.
#include <cstdint>
#include <functional>
#include <memory>
#include <string_view>

#include "models/isa/instruction_stream.h"
#include "models/isa/pipe.h"

namespace ascendsim {

class InstructionTraceSink;

// Task types as kernel_details "Accelerator Core" spells them.
enum class TaskType : std::uint8_t { AiCore, AiVectorCore, MixAic, MixAiv, AiCpu };
std::string_view taskTypeName(TaskType t);  // "AI_CORE", "AI_VECTOR_CORE", "MIX_AIC", ...

struct BlockProgramRequest {
    std::uint32_t blockIdx = 0;     // 0 .. blockDim-1
    CoreKind coreKind = CoreKind::Cube;
    std::uint32_t subBlockIdx = 0;  // MIX kernels: which AIV of the group (0, 1)
    std::uint64_t workspaceAddr = 0;  // GM scratch of the launch (KernelTask::workspaceAddr)
};

using ProgramFactory = std::function<std::unique_ptr<InstructionStream>(const BlockProgramRequest&)>;

struct KernelTask {
    std::uint64_t taskId = 0;
    std::uint32_t streamId = 0;
    TaskType type = TaskType::AiCore;
    std::uint32_t blockDim = 1;     // AIC blocks for MIX kernels
    std::uint32_t mixBlockDim = 0;  // MIX: AIV blocks (vectorCoresPerCube × blockDim); else 0
    ProgramFactory program;         // AI core task types
    std::uint64_t aiCpuCycles = 0;  // AI_CPU tasks: work in AI CPU cycles
    std::uint64_t userTag = 0;      // opaque to the device: lets the engine map results back
    // GM scratch the host allocated for LoweredKernel::workspaceBytes; the device passes it to
    // every BlockProgramRequest (programs address their workspace relative to it).
    std::uint64_t workspaceAddr = 0;
    // Receives every block's instruction timeline when set (models/core/instruction_trace.h);
    // tracing never changes a result.
    InstructionTraceSink* instructionTrace = nullptr;
    // The kernel binary (op type, variant, dtypes: codeImageOf in kernel_registry.h): launches of
    // one binary share its code in the cores' ICaches. 0 = code of this launch only.
    std::uint64_t codeImage = 0;
    // Bytes of the binary's code a block runs through (ICacheModel::fetchImage); 0 = the chip's
    // icache.kernel_code_bytes.
    std::uint32_t codeBytes = 0;
    // Whether L2 holds the binary's code when the launch starts. A block that misses its code in
    // the ICache fills it from L2 when it does; when it does not (the binary has not run since
    // enough other traffic passed), the first fill waits for HBM (docs/fidelity.md §93). A
    // workload's launches keep their code in L2; the replay walks the real launch order.
    bool codeHeldInL2 = true;
};

// The ICache code image of a task's blocks on cores of `kind`: one per binary and core kind.
inline std::uint64_t codeIdOf(const KernelTask& task, CoreKind kind) {
    constexpr std::uint64_t kLaunchOnly = std::uint64_t{1} << 61;  // apart from binary hashes
    const std::uint64_t image = task.codeImage != 0 ? task.codeImage : (task.taskId | kLaunchOnly);
    return image * 4 + static_cast<std::uint64_t>(kind);
}

}  // namespace ascendsim
