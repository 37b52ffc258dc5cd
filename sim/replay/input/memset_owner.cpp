#include "sim/replay/input/memset_owner.h"

#include <algorithm>

namespace ascendsim {

namespace {

constexpr std::string_view kSuffix = "_MemSet";

bool recordsNoTensor(const std::string& cell) {
    return std::all_of(cell.begin(), cell.end(), [](char c) { return c == '"'; }) || cell == "N/A";
}

// The first output's cells of a "a;b" list.
std::string firstOf(const std::string& cell) { return cell.substr(0, cell.find(';')); }

// The 910A's TBE kernels that add into their output with fp32 atomics across blocks, and so get
// an "atomic_memset" launched before them: a split-K MatMul's C, Conv2DBackpropFilter's dw, a
// ReduceSum split over the reduced axis, NLLLoss's sum. The memset names no owner; it is the first
// such kernel after it on its stream (a0 rows 53 → MatMul28, 191 → Conv2DBackpropFilter75, 86 →
// NLLLoss40; the memset's block dim grows with the owner's output bytes, 3 blocks for 129 KB,
// 11 for 512 KB, 25 for 2.4 MB, docs/fidelity.md §35).
constexpr std::string_view kAtomicMemsetPrefix = "atomic_memset";
constexpr std::string_view kAtomicAccumulators[] = {"MatMul", "BatchMatMul", "Conv2DBackpropFilter", "ReduceSum",
                                                    "NLLLoss", "EmbeddingDenseGrad", "UnsortedSegmentSum"};

bool accumulatesAtomically(const RealKernel& k) {
    const bool fp32 = firstOf(k.outputDtypes) == "FLOAT";
    return fp32 && std::any_of(std::begin(kAtomicAccumulators), std::end(kAtomicAccumulators),
                               [&](std::string_view type) { return k.type.starts_with(type); });
}

// The owner's first output; a scalar ("" in a ";" list) is one element.
void takeOwnersOutput(RealKernel& memset, const RealKernel& owner) {
    const std::string shape = firstOf(owner.outputShapes);
    memset.outputShapes = memset.inputShapes = shape.empty() ? "1" : shape;
    memset.outputDtypes = memset.inputDtypes = firstOf(owner.outputDtypes);
    memset.outputFormats = memset.inputFormats = firstOf(owner.outputFormats);
}

bool ownsByName(const RealKernel& memset, const RealKernel& k) {
    if (!memset.name.ends_with(kSuffix)) return false;
    const std::string owner = memset.name.substr(0, memset.name.size() - kSuffix.size());  // "aclnnMm_MatMulCommon"
    return k.name == owner || k.name.starts_with(owner + "_");
}

bool ownsAsAtomic(const RealKernel& memset, const RealKernel& k) {
    return memset.name.starts_with(kAtomicMemsetPrefix) && k.stream == memset.stream && accumulatesAtomically(k);
}

}  // namespace

void attributeMemSetTensors(std::vector<RealKernel>& kernels) {
    for (std::size_t i = 0; i < kernels.size(); ++i) {
        RealKernel& memset = kernels[i];
        if (memset.type != "MemSet" || !recordsNoTensor(memset.outputShapes)) continue;
        // No tensor: the 910A's rows spell that as dtype UNDEFINED, format NULL.
        memset.inputShapes = memset.inputDtypes = memset.inputFormats = "N/A";
        memset.outputShapes = memset.outputDtypes = memset.outputFormats = "N/A";
        for (std::size_t j = i + 1; j < kernels.size() && j <= i + kMemSetOwnerLookahead; ++j) {
            RealKernel& k = kernels[j];
            if (k.type == "MemSet" || recordsNoTensor(k.outputShapes)) continue;
            const bool atomicClean = ownsAsAtomic(memset, k);
            if (!ownsByName(memset, k) && !atomicClean) continue;
            takeOwnersOutput(memset, k);
            k.accumulatesAtomically = k.accumulatesAtomically || atomicClean;
            k.outputClearedByMemSet = true;
            break;
        }
    }
}

}  // namespace ascendsim
