#pragma once
// One real kernel_details row, as the replay rule tests write them.
#include <cstdint>
#include <string>

#include "sim/replay/input/real_profile.h"

namespace ascendsim::test {

inline RealKernel row(const std::string& type, const std::string& inShapes, const std::string& inDtypes,
                      const std::string& inFormats, const std::string& outShapes, const std::string& outDtypes,
                      const std::string& outFormats, std::uint32_t blockDim = 20) {
    RealKernel k;
    k.name = type;
    k.type = type;
    k.acceleratorCore = "AI_CORE";
    k.blockDim = blockDim;
    k.inputShapes = inShapes;
    k.inputDtypes = inDtypes;
    k.inputFormats = inFormats;
    k.outputShapes = outShapes;
    k.outputDtypes = outDtypes;
    k.outputFormats = outFormats;
    return k;
}

}  // namespace ascendsim::test
