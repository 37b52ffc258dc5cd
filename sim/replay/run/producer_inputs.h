#pragma once
// Which inputs of a real kernel row a kernel just before it wrote (docs/fidelity.md "Method",
// §8, §11b). The export names no tensor, so the dataflow is inferred: input j of row i counts as
// produced when one of the kProducerWindow rows before it on its stream (file order, which is
// start order; "Stream ID" / TASK.streamId) has an output of the same shape, dtype and format, and
// the tensor can still be in L2: the newest such row p decides, and the bytes every row between
// p and i moved (inputs + outputs as recorded, all streams), plus the tensor itself, must fit the
// L2. On hardware such an input is still in L2 when the kernel starts; `--l2 producer` preloads
// it by running a write of it first. Formats match as matchedFormat() says.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/replay/input/real_profile.h"
#include "sim/replay/run/tensor_identity.h"  // matchedFormat

namespace ascendsim {

// Launches looked back (assumed: 3 — an elementwise chain's producer is one or two launches
// back; a longer window matches unrelated tensors of a common activation shape).
inline constexpr std::size_t kProducerWindow = 3;

// Per row of profile.kernels: the indices of its produced inputs, ascending. Scalars ("" cells)
// and absent tensors are never counted. `l2Bytes` = 0: no capacity test (shape match alone).
std::vector<std::vector<std::size_t>> producedInputs(const RealProfile& profile, std::uint64_t l2Bytes);

// Per row: the outputs that overwrite a tensor still in L2 — only for a copy into an existing
// tensor (aclnnInplaceCopy: copy_(self, src) writes self), whose target counts as resident when
// one of the kProducerWindow rows before it on its stream read or wrote a tensor of its shape,
// dtype and format, under the same capacity test. Other outputs are new allocations, of which
// the export says nothing. Real copies back into the tensor a kernel just read write faster than
// HBM takes (docs/fidelity.md §16).
std::vector<std::vector<std::size_t>> residentCopyTargets(const RealProfile& profile, std::uint64_t l2Bytes);

}  // namespace ascendsim
