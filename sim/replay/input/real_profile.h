#pragma once
// What `ascendsim replay` reads from a real profile: its kernel rows as kernel_details.csv or the
// DB export records them (formats.md §1, §2), reduced to what a replay needs — the kernel's
// identity (type, tensors, block dim), its measured duration and pipe ratios, and the core-side
// cycle counts the chip inference uses. Communication tasks are counted, never replayed.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <iterator>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "profiler/config/profiler_config.h"

namespace ascendsim {

// A profile that cannot be replayed as given (not a profile, unknown layout, missing column):
// exit code 2. The message names the file and, where there is one, the line and field.
class ReplayInputError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// One core side's PMU totals of a kernel row: `prefix` is "aic_", "aiv_" or "" (coupled cores).
struct RealSideCycles {
    std::string prefix;
    double totalCycles = 0.0;
    double coreTimeUs = 0.0;  // aicore_time(us) / aiv_time(us): msprof's cycles / platform freq
};

// The PipeUtilization columns a replay compares: every *_ratio and the icache miss rates.
inline bool isPipeColumn(std::string_view name) {
    return name.ends_with("_ratio") || name.ends_with("_icache_miss_rate");
}

// The core side a pipe column belongs to: "aic_", "aiv_", or "" for the coupled cores' unprefixed
// columns (the prefixes of RealSideCycles).
inline std::string_view pipeColumnSide(std::string_view column) {
    for (std::string_view prefix : {std::string_view("aic_"), std::string_view("aiv_")})
        if (column.starts_with(prefix)) return prefix;
    return "";
}

struct RealKernel {
    std::string name;             // "aclnnMatmul_MatMulV3Common_MatMulV3"
    std::string type;             // CANN op type, "MatMulV3"
    std::string acceleratorCore;  // "AI_CORE", "AI_VECTOR_CORE", "MIX_AIC", "MIX_AIV", "AI_CPU", ...
    double durationUs = 0.0;
    // Start on the export's clock (ns since the epoch); -1 when not recorded. Places the kernel
    // beside the HCCL transfers (hcclTransfers, §108).
    std::int64_t startNs = -1;
    std::string stream;           // "Stream ID" / TASK.streamId; empty when not recorded
    std::string taskId;           // "Task ID" of the text export (joins l2_cache.csv); empty when not read
    std::uint32_t blockDim = 0;
    std::uint32_t mixBlockDim = 0;
    // Tensor cells as the export spells them, outer quotes removed: "4096,1024;1024,2048",
    // "DT_BF16;DT_BF16", "ND;ND"; "N/A" when the kernel has none.
    std::string inputShapes, inputDtypes, inputFormats;
    std::string outputShapes, outputDtypes, outputFormats;
    std::map<std::string, double> pipeRatios;  // "aic_mac_ratio" → 0.52 (isPipeColumn)
    std::vector<RealSideCycles> sides;         // sides with cycles > 0
    std::vector<std::string> idleSides;        // prefixes whose total_cycles the row records as 0
    std::size_t sourceLine = 0;                // CSV line (1-based) or DB globalTaskId
    // An atomic clean (the 910A's "atomic_memset" row, memset_owner.h) zeroed this kernel's output
    // before it: its blocks add their partial results into it.
    bool accumulatesAtomically = false;
    // A MemSet of its own (memset_owner.h: by name, or the 910A's atomic clean) zeroed this
    // kernel's first output just before it: the kernel writes into that tensor, not a new one.
    bool outputClearedByMemSet = false;
    // The autograd link of the framework op that launched the kernel (autograd_links.h; text
    // exports with trace_view.json): `forwardOp` is the index of the forward op it runs in, and
    // `backwardOf` the forward op whose backward node it runs in (reading the tensors that op
    // saved). kNoAutogradOp when the export says nothing.
    static constexpr std::size_t kNoAutogradOp = static_cast<std::size_t>(-1);
    std::size_t forwardOp = kNoAutogradOp;
    std::size_t backwardOf = kNoAutogradOp;
};

// Drops the pipe ratios of the sides the row records with total_cycles 0 (kernel.idleSides): that
// side did not run (an AI_CORE kernel's AIV side, a MIX_AIV kernel's AIC side), and msprof writes 0
// for a ratio whose denominator is 0 — not a measured idle pipe. The replay compares only measured
// ratios, as it does on the simulated side (docs/fidelity.md §89).
inline bool sideIsIdle(const RealKernel& kernel, std::string_view side) {
    for (const std::string& prefix : kernel.idleSides)
        if (side == prefix) return true;
    return false;
}
inline void dropIdleSideRatios(RealKernel& kernel) {
    for (auto it = kernel.pipeRatios.begin(); it != kernel.pipeRatios.end();)
        it = sideIsIdle(kernel, pipeColumnSide(it->first)) ? kernel.pipeRatios.erase(it) : std::next(it);
}

// One HCCL transfer task of the profile (the trace's HCCL plane rows, the DB's
// COMMUNICATION_TASK_INFO): a Memcpy or Reduce_Inline that moved `bytes`. The Notify_Record /
// Notify_Wait rows (a collective's synchronisation and waiting for its peers) move nothing and are
// not kept (docs/fidelity.md §108).
struct HcclTransfer {
    std::int64_t startNs = 0;  // the kernels' clock (RealKernel::startNs)
    std::int64_t endNs = 0;
    std::uint64_t bytes = 0;
    bool reduces = false;  // Reduce_Inline: the destination is read and written back
    std::string link;      // "ON_CHIP", "HCCS", "PCIE", "ROCE", "SIO", ...
};

struct RealProfile {
    std::filesystem::path source;  // the file read (kernel_details.csv or the .db)
    std::string exportType;        // "text" or "db"
    FormatVersion era = FormatVersion::Cann83;
    bool hasShapes = true;         // false for Level0 (no op type, no tensors)
    std::string npuName;           // NPU_INFO name ("Ascend910B"), empty when not recorded
    std::vector<RealKernel> kernels;     // compute tasks, in file order
    std::uint64_t communicationTasks = 0;
    double communicationUs = 0.0;
    // Empty when the export records no HCCL task rows (the Qwen3 level2 text export: kernel_details
    // and communication.json only).
    std::vector<HcclTransfer> hcclTransfers;
};

// One entry of a kernel row's ";"-separated cell ("32,9216;36864;" holds "32,9216", "36864", ""):
// where entry `index` starts and ends, for the passes that read or replace one tensor's cell.
struct CellEntrySpan {
    std::size_t begin = 0;
    std::size_t end = std::string::npos;  // npos: the entry runs to the cell's end
};

// The span of entry `index` of `cell`; none when the cell has fewer entries.
inline std::optional<CellEntrySpan> cellEntrySpan(const std::string& cell, std::size_t index) {
    std::size_t begin = 0;
    for (std::size_t i = 0; i < index; ++i) {
        begin = cell.find(';', begin);
        if (begin == std::string::npos) return std::nullopt;
        ++begin;
    }
    return CellEntrySpan{begin, cell.find(';', begin)};
}

}  // namespace ascendsim
