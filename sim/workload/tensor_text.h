#pragma once
// Tensor helpers the workload layer needs without linking the kernels library (where
// op_instance.cpp lives): format names as workloads write them, element counts and byte sizes.
#include <cstdint>
#include <string_view>
#include <vector>

#include "models/kernels/op_instance.h"

namespace ascendsim {

bool parseWorkloadTensorFormat(std::string_view text,
                               TensorFormat& out);  // "ND", ..., "FRACTAL_NZ"
std::string_view workloadTensorFormatName(TensorFormat format);
std::int64_t elementCountOf(const std::vector<std::int64_t>& shape);
std::uint64_t byteSizeOf(const TensorInfo& tensor);

}  // namespace ascendsim
