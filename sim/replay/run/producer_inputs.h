#pragma once
// Which inputs of a real kernel row a kernel just before it wrote (docs/fidelity.md "Method",
// §8, §11b). The export names no tensor, so the dataflow is inferred: input j of row i counts as
// produced when one of the kProducerWindow rows before it on its stream (file order, which is
// start order; "Stream ID" / TASK.streamId) has an output of the same shape, dtype and format, and
// the tensor can still be in L2: the newest such row p decides, and the bytes every row between
// p and i moved (inputs + outputs as recorded, all streams), plus the tensor itself, must fit the
// L2. On hardware such an input is still in L2 when the kernel starts; `--l2 producer` preloads
// it by running a write of it first.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/replay/input/real_profile.h"

namespace ascendsim {

// Launches looked back (assumed: 3 — an elementwise chain's producer is one or two launches
// back; a longer window matches unrelated tensors of a common activation shape).
inline constexpr std::size_t kProducerWindow = 3;

// Per row of profile.kernels: the indices of its produced inputs, ascending. Scalars ("" cells)
// and absent tensors are never counted. `l2Bytes` = 0: no capacity test (shape match alone).
std::vector<std::vector<std::size_t>> producedInputs(const RealProfile& profile, std::uint64_t l2Bytes);

}  // namespace ascendsim
