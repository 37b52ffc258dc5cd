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

}  // namespace

void attributeMemSetTensors(std::vector<RealKernel>& kernels) {
    for (std::size_t i = 0; i < kernels.size(); ++i) {
        RealKernel& memset = kernels[i];
        if (memset.type != "MemSet" || !recordsNoTensor(memset.outputShapes)) continue;
        // No tensor: the 910A's rows spell that as dtype UNDEFINED, format NULL.
        memset.inputShapes = memset.inputDtypes = memset.inputFormats = "N/A";
        memset.outputShapes = memset.outputDtypes = memset.outputFormats = "N/A";
        if (!memset.name.ends_with(kSuffix)) continue;
        const std::string owner = memset.name.substr(0, memset.name.size() - kSuffix.size());  // "aclnnMm_MatMulCommon"
        for (std::size_t j = i + 1; j < kernels.size() && j <= i + kMemSetOwnerLookahead; ++j) {
            const RealKernel& k = kernels[j];
            const bool named = k.name == owner || k.name.starts_with(owner + "_");
            if (!named || k.type == "MemSet" || recordsNoTensor(k.outputShapes)) continue;
            memset.outputShapes = memset.inputShapes = firstOf(k.outputShapes);
            memset.outputDtypes = memset.inputDtypes = firstOf(k.outputDtypes);
            memset.outputFormats = memset.inputFormats = firstOf(k.outputFormats);
            break;
        }
    }
}

}  // namespace ascendsim
