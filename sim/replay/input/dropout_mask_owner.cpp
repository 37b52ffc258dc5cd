#include "sim/replay/input/dropout_mask_owner.h"

#include <string_view>

namespace ascendsim {

namespace {

bool isMaskGenerator(const std::string& type) {
    return type == "StatelessDropOutGenMask" || type == "DropOutGenMask" || type == "DropOutGenMaskV3";
}

// Entry `index` of a ";"-separated cell ("32,9216;36864;" → 1 → "36864"), empty if absent.
std::string entryOf(const std::string& cell, std::size_t index) {
    const auto span = cellEntrySpan(cell, index);
    return span ? cell.substr(span->begin, span->end - span->begin) : std::string{};
}

}  // namespace

void attributeDropoutMaskTensors(std::vector<RealKernel>& kernels) {
    for (std::size_t i = 0; i < kernels.size(); ++i) {
        RealKernel& generator = kernels[i];
        if (!isMaskGenerator(generator.type) || generator.outputShapes != "N/A") continue;
        for (std::size_t j = i + 1; j < kernels.size() && j <= i + kDropoutMaskConsumerLookahead; ++j) {
            const RealKernel& k = kernels[j];
            if (k.type != "DropOutDoMask") continue;
            const std::string shape = entryOf(k.inputShapes, 1);
            if (shape.empty()) break;
            generator.outputShapes = shape;
            generator.outputDtypes = entryOf(k.inputDtypes, 1);
            generator.outputFormats = entryOf(k.inputFormats, 1);
            break;
        }
    }
}

}  // namespace ascendsim
