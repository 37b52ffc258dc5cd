#pragma once
// The bias of a Conv2D as its own vector kernel: the cube writes y with output channels along
// L0C rows (conv2d_operands.h), where the bias table (a per-column bias) cannot apply, so
// y[n][co][:] += bias[co] runs after it on the vector cores, one (image, channel) plane at a time.
#include <cstdint>

#include "models/kernels/kernel_registry.h"

namespace ascendsim {

struct ConvBiasProblem {
    std::uint64_t planes = 0;        // N · Co
    std::uint64_t channels = 0;      // Co
    std::uint64_t planeElements = 0;  // Ho · Wo
    DataType dtype = DataType::Fp16;  // of y and bias
    std::uint64_t yAddr = 0, biasAddr = 0;
};

LoweredKernel makeConvBiasKernel(const OpInstance& op, const ChipConfig& chip, const ConvBiasProblem& problem);

}  // namespace ascendsim
