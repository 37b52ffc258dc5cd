#pragma once
// Index tensors for the GatherV2 and ScatterUpdate tests.
#include <cstring>
#include <vector>

#include "tests/models/kernels/cube_test_support.h"

namespace ascendsim::test {

// Writes `values` as `t.dtype` (int32 or int64) indices at the tensor's address.
inline void writeIndices(CubeOpHarness& h, const TensorInfo& t,
                         const std::vector<std::int64_t>& values) {
    auto& gm = h.machine().globalMemory();
    for (std::size_t i = 0; i < values.size(); ++i) {
        std::uint8_t* at = gm.data() + t.deviceAddr + i * bytesOf(t.dtype);
        if (t.dtype == DataType::Int64) {
            std::memcpy(at, &values[i], sizeof(std::int64_t));
        } else {
            const auto narrow = static_cast<std::int32_t>(values[i]);
            std::memcpy(at, &narrow, sizeof narrow);
        }
    }
}

}  // namespace ascendsim::test
