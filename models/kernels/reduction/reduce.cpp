// ReduceSum, ReduceMean, ReduceMax (docs/op-catalog.md). Once size-1 dims are ignored, reduced axes
// that are contiguous make the input [A, R, B] and one kernel; [R1, A, R2] is one kernel too
// (reduce_outer_inner.h); an fp32 sum of [R1, A, R2] or [R, A] into an atomically cleaned output
// splits the leading reduced run over the blocks (reduce_atomic.h); other non-adjacent ones run one pass per reduced run (lowerReducePasses).
// B = 1 reduces rows (vector_tiling_rows; rows longer than UB in chunks, reduce_long_rows.h), B > 1
// folds rows of columns (reduce_columns). Mean scales by 1/R in fp32.
#include <algorithm>
#include <set>

#include "models/kernels/elementwise/elementwise_broadcast.h"
#include "models/kernels/reduction/dsl_reduce_dispatch.h"
#include "models/kernels/reduction/reduce_all.h"
#include "models/kernels/reduction/reduce_atomic.h"
#include "models/kernels/reduction/reduce_columns.h"
#include "models/kernels/reduction/reduce_long_rows.h"
#include "models/kernels/reduction/reduce_outer_inner.h"
#include "models/kernels/reduction/workspace_rebase.h"
#include "models/kernels/tiling/vector_tiling_rows.h"

namespace ascendsim {

namespace {

struct DimRun {
    std::int64_t size = 1;
    bool reduced = false;
};

std::vector<LoweredKernel> lowerReduce(const OpInstance& op, const ChipConfig& chip, VectorOp reduceOp, bool mean);

// Reduced runs that are not adjacent ([R1, A, R2], e.g. a bias gradient of [N, C, H·W] over N and
// H·W) take one kernel per reduced run, innermost first, through the launch workspace: the first
// pass reads all of x in contiguous rows and leaves a small [R1, A] (here [N, C]) for the next
// pass, as CANN's reduce splits a multi-axis pattern into passes. Each pass reduces one adjacent
// run, so a mean of means (equal counts) is the mean and a max of maxima the max.
std::vector<LoweredKernel> lowerReducePasses(const OpInstance& op, const ChipConfig& chip, VectorOp reduceOp,
                                             bool mean, std::vector<DimRun> runs) {
    const TensorInfo& x = op.inputs[0];
    std::vector<OpInstance> passes;
    std::uint64_t slotBytes = 0;
    for (std::size_t r = runs.size(); r-- > 0;) {
        if (!runs[r].reduced) continue;
        OpInstance pass = op;
        pass.inputs[0].shape.clear();
        for (const DimRun& run : runs) pass.inputs[0].shape.push_back(run.size);
        pass.attrs["axes"] = std::vector<std::int64_t>{static_cast<std::int64_t>(r)};
        runs.erase(runs.begin() + static_cast<std::ptrdiff_t>(r));
        TensorInfo& y = pass.outputs[0];
        y.shape.clear();
        for (const DimRun& run : runs) y.shape.push_back(run.size);
        if (y.shape.empty()) y.shape = {1};
        y.dtype = x.dtype;
        slotBytes = std::max(slotBytes, static_cast<std::uint64_t>(y.elementCount()) * bytesOf(x.dtype));
        passes.push_back(std::move(pass));
    }
    slotBytes = (slotBytes + 511) / 512 * 512;  // assumed: 512 B aligned workspace slots, as Transpose's
    std::vector<LoweredKernel> kernels;
    for (std::size_t p = 0; p < passes.size(); ++p) {
        OpInstance& pass = passes[p];
        // Pass p writes slot p % 2 and the next pass reads it; the last writes y.
        if (p > 0) pass.inputs[0].deviceAddr = kWorkspacePlaceholder + (p - 1) % 2 * slotBytes;
        if (p + 1 < passes.size()) pass.outputs[0].deviceAddr = kWorkspacePlaceholder + p % 2 * slotBytes;
        else pass.outputs[0] = op.outputs[0];
        for (LoweredKernel& kernel : lowerReduce(pass, chip, reduceOp, mean))
            kernels.push_back(rebasedOntoWorkspace(std::move(kernel), 2 * slotBytes));
    }
    return kernels;
}

std::vector<LoweredKernel> lowerReduce(const OpInstance& op, const ChipConfig& chip, VectorOp reduceOp, bool mean) {
    requireOperands(op, 1, 1);
    const TensorInfo& x = op.inputs[0];
    vectorComputeType(op, x.dtype);
    const auto rank = static_cast<std::int64_t>(x.shape.size());
    const auto axesAttr = op.intsAttr("axes", {});
    if (op.attrs.find("axes") == op.attrs.end()) throwLoweringError(op, "attribute axes is required");
    std::set<std::int64_t> axes;
    for (auto a : axesAttr) {
        const std::int64_t axis = a < 0 ? a + rank : a;
        if (axis < 0 || axis >= rank) throwLoweringError(op, "axis " + std::to_string(a) + " out of range");
        axes.insert(axis);
    }
    if (axesAttr.empty())  // ONNX/TF convention: no axes reduces everything
        for (std::int64_t d = 0; d < rank; ++d) axes.insert(d);
    // Runs of dims (size-1 dims ignored) that are all reduced or all kept.
    std::vector<DimRun> runs;
    for (std::int64_t d = 0; d < rank; ++d) {
        const auto size = x.shape[static_cast<std::size_t>(d)];
        if (size == 1) continue;
        const bool isReduced = axes.count(d) > 0;
        if (runs.empty() || runs.back().reduced != isReduced) runs.push_back({1, isReduced});
        runs.back().size *= size;
    }
    const auto reducedRuns = std::count_if(runs.begin(), runs.end(), [](const DimRun& r) { return r.reduced; });
    // Every element summed into one on the 220x: CANN's MIX_AIV reduce splits them over its blocks
    // and combines the partials after an all-AIV barrier, paid also at block dim 1 (Qwen3 rank 2
    // ReduceSum [4096] → [1], bd 1: 6300-9300 cycles, scalar 2900-3060, as LpNormV2 [1024] bd 1;
    // AlexNet 910B2 ReduceSum [32] / [160] → [1], bd 1: 7900-8300, scalar 5140-5290; docs/fidelity.md
    // §61). The 910A's static ReduceSumD [32] → [1] takes 1300 cycles and its cores have no mode-0 flags.
    // It is the launch of the dtype's one reduce binary (§68), so its blocks run through that binary's
    // code image, kDslReduceCodeBytes, as its column reductions do (docs/fidelity.md §176).
    if (runs.size() == 1 && runs[0].reduced && reduceOp == VectorOp::ReduceSum && chip.organisation == CoreOrganisation::Split) {
        LoweredKernel whole = lowerWholeReduction(op, chip, {.scale = mean ? 1.0f / static_cast<float>(runs[0].size) : 1.0f});
        whole.codeBytes = dynamicBinaryCodeBytes(chip, kDslReduceCodeBytes);
        return {whole};
    }
    // [R1, A, R2] or [R, A] summed into an atomically cleaned y: blocks split the leading reduced run.
    if (reducesIntoAtomicallyCleanedOutput(op, reduceOp) && (runs.size() == 2 || runs.size() == 3) &&
        runs[0].reduced && !runs[1].reduced) {
        const auto size = [&runs](std::size_t r) { return static_cast<std::uint64_t>(r < runs.size() ? runs[r].size : 1); };
        auto kernel = lowerAtomicReduction(op, chip, mean, size(0), size(1), size(2));
        if (kernel) return {std::move(*kernel)};
    }
    if (reducedRuns == 2 && runs.size() == 3) {  // [R1, A, R2]: one kernel
        auto kernel = lowerOuterInnerReduction(op, chip, reduceOp, mean, static_cast<std::uint64_t>(runs[0].size),
                                               static_cast<std::uint64_t>(runs[1].size), static_cast<std::uint64_t>(runs[2].size));
        if (kernel) return {std::move(*kernel)};
    }
    if (reducedRuns > 1) return lowerReducePasses(op, chip, reduceOp, mean, runs);
    std::uint64_t outer = 1, reduced = 1, inner = 1;
    int phase = 0;  // 0: before the reduced run, 1: inside it, 2: after it
    for (const DimRun& run : runs) {
        if (run.reduced) phase = 1;
        else if (phase == 1) phase = 2;
        (run.reduced ? reduced : phase == 0 ? outer : inner) *= static_cast<std::uint64_t>(run.size);
    }
    if (inner > 1 && reduced > 1) return {lowerColumnReduction(op, chip, reduceOp, mean, outer, reduced, inner)};
    RowKernelSpec spec;
    spec.rows = outer * inner;
    spec.length = reduced;
    spec.rowInputs = {x};
    spec.valueOutputs = {op.outputs[0]};
    const float scale = mean ? 1.0f / static_cast<float>(reduced) : 1.0f;
    spec.compute = [reduceOp, mean, scale](RowTile& t) {
        t.reduce(reduceOp, t.inputs[0], t.valueOutputs[0]);
        if (mean) t.values(VectorOp::Muls, t.valueOutputs[0], t.valueOutputs[0], 0, scale);
    };
    if (!rowKernelFits(chip, spec)) return {lowerLongRowReduction(op, chip, reduceOp, mean, spec.rows, spec.length)};
    return {lowerRowKernel(op, chip, std::move(spec))};
}

}  // namespace

ASCENDSIM_REGISTER_KERNEL("ReduceSum", [](const OpInstance& op, const ChipConfig& chip) {
    return lowerReduce(op, chip, VectorOp::ReduceSum, false);
});
ASCENDSIM_REGISTER_KERNEL("ReduceMean", [](const OpInstance& op, const ChipConfig& chip) {
    return lowerReduce(op, chip, VectorOp::ReduceSum, true);
});
ASCENDSIM_REGISTER_KERNEL("ReduceMax", [](const OpInstance& op, const ChipConfig& chip) {
    return lowerReduce(op, chip, VectorOp::ReduceMax, false);
});

}  // namespace ascendsim
