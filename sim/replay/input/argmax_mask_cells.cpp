#include "sim/replay/input/argmax_mask_cells.h"

#include <cstdint>
#include <optional>
#include <string>

#include "sim/replay/input/real_tensors.h"

namespace ascendsim {

namespace {

constexpr std::size_t kArgmaxInput = 2;   // MaxPoolGradWithArgmaxV1(x, grad, argmax)
constexpr std::size_t kArgmaxOutput = 1;  // MaxPoolWithArgmaxV1(x) → (y, argmax)

// [N, C, T, T, W, C0] with C a multiple of C0 → the forward's [N, C / C0, T, W, C0]; none for any
// other shape (the 910A's 5-D cells are the forward's already).
std::optional<std::vector<std::int64_t>> forwardMaskShape(const std::vector<std::int64_t>& recorded) {
    if (recorded.size() != 6 || recorded[2] != recorded[3] || recorded[5] <= 0 || recorded[1] % recorded[5] != 0)
        return std::nullopt;
    return std::vector<std::int64_t>{recorded[0], recorded[1] / recorded[5], recorded[2], recorded[4], recorded[5]};
}

// `cell` ("a;b;c") with entry `index` replaced by `text`; unchanged when it has no such entry.
std::string withEntry(const std::string& cell, std::size_t index, const std::string& text) {
    const auto span = cellEntrySpan(cell, index);
    if (!span) return cell;
    return cell.substr(0, span->begin) + text + (span->end == std::string::npos ? "" : cell.substr(span->end));
}

// The format cell a forward max pool of the profile recorded for the mask `mask` it wrote, if any.
std::optional<std::string> forwardMaskFormat(const std::vector<RealKernel>& kernels, const RealTensor& mask,
                                             const std::vector<std::int64_t>& shape) {
    for (const RealKernel& forward : kernels) {
        if (forward.type != "MaxPoolWithArgmaxV1") continue;
        try {
            const std::vector<RealTensor> outputs = realOutputs(forward);
            if (outputs.size() > kArgmaxOutput && outputs[kArgmaxOutput].physicalShape == shape &&
                outputs[kArgmaxOutput].dtype == mask.dtype)
                return outputs[kArgmaxOutput].formatText;
        } catch (const UnreplayableKernel&) {
        }
    }
    return std::nullopt;
}

}  // namespace

void restoreArgmaxMaskCells(std::vector<RealKernel>& kernels) {
    for (RealKernel& k : kernels) {
        if (k.type != "MaxPoolGradWithArgmaxV1") continue;
        std::vector<RealTensor> inputs;
        try {
            inputs = realInputs(k);
        } catch (const UnreplayableKernel&) {
            continue;  // the replay refuses the row itself, with its reason
        }
        if (inputs.size() <= kArgmaxInput) continue;
        const auto shape = forwardMaskShape(inputs[kArgmaxInput].physicalShape);
        if (!shape) continue;
        k.inputShapes = withEntry(k.inputShapes, kArgmaxInput, shapeText(*shape));
        if (const auto format = forwardMaskFormat(kernels, inputs[kArgmaxInput], *shape))
            k.inputFormats = withEntry(k.inputFormats, kArgmaxInput, *format);
    }
}

}  // namespace ascendsim
