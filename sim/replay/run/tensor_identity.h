#pragma once
// How the replay tells real tensors apart (docs/fidelity.md §8, §16c). The export records no
// addresses (kernel_details, the DB's COMPUTE_TASK_INFO, operator_memory.csv and OP_MEMORY carry
// shapes, dtypes, formats and host-side allocation sizes only), so a tensor is known by its
// shape, dtype and format cells: two tensors with the same key are indistinguishable — except
// where autograd's links name a backward kernel's saved input (autograd_links.h, l2_timeline.h).
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "sim/replay/input/real_profile.h"

namespace ascendsim {

using TensorKey = std::tuple<std::string, std::string, std::string>;  // shape, dtype, format cells

// The tensors of one side of a row as keys, in cell order; a scalar or absent tensor gets a key
// with an empty shape (it never matches).
std::vector<TensorKey> tensorKeys(const std::string& shapes, const std::string& dtypes, const std::string& formats);
std::vector<TensorKey> inputKeys(const RealKernel& kernel);
// A list kernel's outputs (torch_npu's Foreach ops: aclnnForeachAddListV2 over [64,3,11,11], [64],
// ...) are recorded flattened ("23232;64;..."), output j the result for input j: every output a 1-D
// shape with input j's element count, dtype and format, two or more of them. outputKeys then gives
// output j input j's shape, so the tensor written is found under the shape its readers record
// (docs/fidelity.md §144e).
bool outputsRecordedFlat(const std::vector<TensorKey>& inputs, const std::vector<TensorKey>& outputs);
std::vector<TensorKey> outputKeys(const RealKernel& kernel);

// Bytes of each recorded tensor of one side; empty when the simulator has no dtype for one of
// them (the tensors still move, but their sizes are unknown: counted as nothing).
std::vector<std::uint64_t> tensorBytesOfSide(const RealKernel& kernel, bool inputs);

// The tensor identity the matching uses: plain layouts (ND, NCHW, NHWC, NCL, ...) are one memory
// order for a contiguous tensor, so they match each other ("ND" is returned); a private layout
// (NC1HWC0, FRACTAL_NZ, ...: a digit or FRACTAL in the name) keeps its name.
std::string matchedFormat(const std::string& formatCell);

}  // namespace ascendsim
