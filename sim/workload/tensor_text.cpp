#include "sim/workload/tensor_text.h"

#include <array>
#include <cstdint>

#include "sim/workload/workload_limits.h"

namespace ascendsim {

namespace {
// Same spelling and order as TensorFormat and tensorFormatName() in op_instance.cpp.
constexpr std::array<std::string_view, 6> kFormatNames = {"ND",      "NCHW",       "NHWC",
                                                          "NC1HWC0", "FRACTAL_NZ", "FRACTAL_Z"};
}  // namespace

bool parseWorkloadTensorFormat(std::string_view text, TensorFormat& out) {
    for (std::size_t i = 0; i < kFormatNames.size(); ++i) {
        if (kFormatNames[i] == text) return out = static_cast<TensorFormat>(i), true;
    }
    return false;
}

std::string_view workloadTensorFormatName(TensorFormat format) {
    return kFormatNames[static_cast<std::size_t>(format)];
}

std::int64_t elementCountOf(const std::vector<std::int64_t>& shape) {
    std::int64_t count = 1;
    for (auto d : shape) {
        // Saturates: the loader rejects such a tensor (workload_limits.h), but a shape rule may
        // compare counts before that check sees an inferred output.
        if (__builtin_mul_overflow(count, d, &count)) return INT64_MAX;
    }
    return count;
}

std::uint64_t byteSizeOf(const TensorInfo& tensor) {
    return checkedByteSize(tensor.shape, tensor.dtype).value_or(UINT64_MAX);
}

}  // namespace ascendsim
