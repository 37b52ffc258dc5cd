#pragma once
// Op type → lowering. Each op family registers itself in its own .cpp with
// ASCENDSIM_REGISTER_KERNEL, so no hand-kept list exists (STYLE.md, Ramulator 2).
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "models/chip/chip_config.h"
#include "models/kernels/op_instance.h"
#include "models/task/kernel_task.h"

namespace ascendsim {

// One kernel launch produced by lowering an op. Most ops lower to one kernel.
struct LoweredKernel {
    std::string kernelSuffix;        // distinguishes several kernels of one op ("" if one)
    // The op type this kernel reports (kernel_details "Type"), when it is a helper kernel CANN
    // launches under another type (a weight TransData); empty = the op's own type.
    std::string reportedOpType;
    TaskType type = TaskType::AiCore;
    std::uint32_t blockDim = 1;
    std::uint32_t mixBlockDim = 0;
    ProgramFactory program;          // AI core types
    std::uint64_t aiCpuCycles = 0;   // AI_CPU
    std::uint64_t workspaceBytes = 0;  // GM scratch the kernel needs (allocated by the host)
    // Bytes of code a block of this kernel's binary runs through (KernelTask::codeBytes); 0 = the
    // chip's icache.kernel_code_bytes.
    std::uint32_t codeBytes = 0;
};

// The code image of a CANN binary that carries its own (`bytes`, LoweredKernel::codeBytes) on the
// split chips, whose kernels are dynamic binaries building several tiling cases into one; 0 (the
// chip's icache.kernel_code_bytes) on the coupled chips, whose kernels are static, one shape each
// (docs/fidelity.md §36, §176).
inline std::uint32_t dynamicBinaryCodeBytes(const ChipConfig& chip, std::uint32_t bytes) {
    return chip.organisation == CoreOrganisation::Split ? bytes : 0;
}

inline const std::string& reportedOpTypeOf(const LoweredKernel& kernel, const std::string& opType) {
    return kernel.reportedOpType.empty() ? opType : kernel.reportedOpType;
}

// The device task of one lowered kernel (ids, stream and workspace address are the caller's).
inline KernelTask kernelTaskOf(const LoweredKernel& kernel) {
    KernelTask task;
    task.type = kernel.type;
    task.blockDim = kernel.blockDim;
    task.mixBlockDim = kernel.mixBlockDim;
    task.program = kernel.program;
    task.aiCpuCycles = kernel.aiCpuCycles;
    task.codeBytes = kernel.codeBytes;
    return task;
}

// Whether CANN compiles an op type's binaries per tensor format as well as per dtype. Its binary
// lists (opp/built-in/op_impl/ai_core/tbe/kernel/config/ascend910b/<op>.json, CANN 8.1.RC1) mark
// each input's and output's format `format_match_mode: FormatFixed` for TransData — one binary per
// (src, dst) format pair and sub-format — while the elementwise ops list ND only and match any
// format (relu.json's float32 binary serves NCHW and ND alike; add_example's FormatAgnostic).
bool binaryFixesFormats(std::string_view opType);

// The binary a real launch of `kernel` (lowered from `op`) runs: CANN compiles one per op type,
// kernel variant, task type and dtypes — and formats where binaryFixesFormats — and reuses it for
// every shape (the shape is tiling data). Launches with the same image share code in the cores'
// ICaches (KernelTask::codeImage).
std::uint64_t codeImageOf(const OpInstance& op, const LoweredKernel& kernel);
// The image of a binary named by `key` (its op type, variant, task type and dtypes, spelt as
// the caller likes): a stable non-zero 64-bit hash.
std::uint64_t codeImageOfKey(std::string_view key);

using LoweringFunction = std::function<std::vector<LoweredKernel>(const OpInstance&, const ChipConfig&)>;

class KernelRegistry {
public:
    static KernelRegistry& instance();
    // Returns true so it can initialise a static in the registration macro.
    bool add(const std::string& opType, LoweringFunction lowering);
    const LoweringFunction* find(const std::string& opType) const;
    std::vector<std::string> opTypes() const;  // sorted

    // Lowers `op`; throws LoweringError for an unknown type or an impossible lowering.
    std::vector<LoweredKernel> lower(const OpInstance& op, const ChipConfig& chip) const;

private:
    std::vector<std::pair<std::string, LoweringFunction>> entries_;
};

}  // namespace ascendsim

#define ASCENDSIM_KERNEL_CONCAT_INNER(a, b) a##b
#define ASCENDSIM_KERNEL_CONCAT(a, b) ASCENDSIM_KERNEL_CONCAT_INNER(a, b)
// Registers `fn` (a LoweringFunction) for op type `type` (a string literal).
#define ASCENDSIM_REGISTER_KERNEL(type, fn)                                                   \
    static const bool ASCENDSIM_KERNEL_CONCAT(kRegistered_, __COUNTER__) [[maybe_unused]] = \
        ::ascendsim::KernelRegistry::instance().add(type, fn)
