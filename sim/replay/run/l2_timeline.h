#pragma once
// What the chip's L2 holds when each real kernel starts, by walking the profile's rows in launch
// order through an LRU of tensors (`--l2 timeline`, docs/fidelity.md). Every row reads its inputs
// and then writes its outputs; each becomes the most recently used tensor, and the least recently
// used ones leave L2 once the tensors held exceed its capacity. An input is resident at a row's
// start when a tensor of its identity (tensor_identity.h: shape, dtype, format) is still held,
// whether an earlier kernel wrote it or only read it: a weight the forward pass read, the
// activation the kernel before wrote. Unlike `--l2 producer` (producer_inputs.h) no launch window
// or stream limits the match; the capacity alone decides.
//
// Tensors are tracked whole (a tensor larger than L2 is never held, and streaming it flushes
// L2); every output is a new tensor, so it occupies L2 beside an older tensor of the same
// identity, and a later read finds the newest. An in-place kernel's outputs are its inputs
// (inplace_kernels.h: output 0 of an aclnnInplace* kernel, ApplyAdamWV2's var, m and v), and
// an aclnnInplaceCopy writes into an existing tensor of its output's identity, not its source,
// as does a kernel whose own MemSet cleared its output just before it (memset_owner.h: the MemSet
// wrote that tensor, the kernel accumulates into it; docs/fidelity.md §101).
// A kernel never finds a tensor that any launch of itself (op type and tensor cells) touched
// while it was held: the same kernel launched again is a loop over layers or parameters, working
// on the next one (docs/fidelity.md §23, §42c).
// Where the export links a kernel to autograd (autograd_links.h: a forward op and its backward
// node), a backward node's kernel reads the tensors its forward op saved: an input whose identity
// the forward op's kernels read as exactly one tensor, and wrote none of, is that tensor — held if
// L2 still holds it, cold if not, whatever newer tensor of its identity L2 holds (docs/fidelity.md
// §140: the convolution's filter gradient recasting the x of its forward pass, not the dx just cast).
// An input of a plain layout no held tensor's identity matches, with the dtype and byte count of
// a tensor the kernel launched just before wrote (of another shape), is that tensor: the framework
// reshaped it between the launches (a view: aten::view / flatten, ViewBackward0, or the aclnn API's
// own reshape of its input). Such a read is then found under the reader's shape too, as a cold
// read of it would have been (docs/fidelity.md §144e). A list kernel's flattened outputs take
// their inputs' shapes (tensor_identity.h: outputsRecordedFlat).
// LRU follows the model's own L2 (l2_cache.h: true LRU); the L2's set conflicts are not modelled.
// The LRU of whole tensors is l2_tensor_lru.h; the autograd records the walk keeps, autograd_tensors.h.
// The walk starts in steady state by default (TimelineStart below).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/replay/input/real_profile.h"

namespace ascendsim {

// The kernel whose write last touched a held tensor: its row of profile.kernels and which of its
// outputs the tensor is. A tensor a kernel read after the write (or only ever read) has none: the
// read left its lines whole in L2 (l2.partial_line_fill, docs/fidelity.md §94).
struct TensorWriter {
    static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
    std::size_t row = kNone;
    std::size_t output = 0;
    bool present() const { return row != kNone; }
};

struct L2Timeline {
    // Per row of profile.kernels: the inputs held in L2 at its start, least recently used first
    // (the order the replay preloads them in, so the newest is the most recently used).
    std::vector<std::vector<std::size_t>> residentInputs;
    // Per row: the outputs written over a tensor held in L2 (a copy into an existing tensor, or the
    // tensor the kernel's own MemSet cleared; every other output is a new allocation, of which the
    // export says nothing).
    std::vector<std::vector<std::size_t>> residentOutputs;
    // Per row, with a code image size given: whether L2 still holds the binary's code (every
    // launch reads its code image, icache.kernel_code_bytes, through L2 like a tensor; §93).
    // Empty without one.
    std::vector<bool> codeHeld;
    // Per row, aligned with residentInputs: the kernel that last wrote each held input, if no read
    // came after it (empty for the producer rule, which keeps no writers).
    std::vector<std::vector<TensorWriter>> residentWriters;
    // Per row: of the lines it brings into L2 (the inputs it reads cold, the outputs it allocates),
    // the share whose victim is dirty — the held tensors it pushes out, oldest first, that a kernel
    // wrote since they entered L2 (a read does not clean a line); lines that land in free space
    // evict nothing. The tensors one row touched last leave in proportion (a kernel streams them
    // tile by tile), and the lines a tensor leaves when it is evicted in part or streamed past L2
    // stay as a remnant no read finds but whose dirty lines still go out. What a write-back L2
    // charges the row in HBM writes (docs/fidelity.md §103, §107).
    std::vector<double> victimDirtyShare;
    // Per row: the same share with the victims taken among the dirty tensors only, oldest first —
    // the most of the row's incoming lines whose victims can be dirty, since a write-back needs a
    // dirty line whichever line the chip's replacement picks (it is not published, hardware.md
    // §2.8). What the eager write-back may charge the row's writes into free ways at most
    // (SharedMemorySystem::setFreeWayWriteBackShare, docs/fidelity.md §178).
    std::vector<double> dirtyVictimBound;
};

// What L2 holds when the profile's first kernel starts: nothing (Empty), or what its last
// kernels left (SteadyState: a training profile is one or more iterations of a loop, so the step
// before the first recorded one ended as the last recorded one does; the walk runs over the rows
// twice and records the second pass).
enum class TimelineStart : std::uint8_t { Empty, SteadyState };

// Where a row's 0-d inputs are (docs/fidelity.md §134e). tensor_identity.h keys no 0-d tensor, so
// the walk tracks none: Cold reads every one from HBM. Held takes each as held in L2 at the row's
// start: a scalar written just before the launch (the aclScalar the aclnn executor hands the kernel
// as a device tensor, torch_npu's wrapped number on the 910A's static kernels, a reduction's 0-d
// result); the chips' one-block two-load rows read like two hits.
enum class ScalarInputs : std::uint8_t { Cold, Held };

// What an input of a shape the walk holds no tensor of, and that is no view of what the kernel
// just before wrote (above), is (docs/fidelity.md §140g). New: a tensor read cold. NodeViews: in an autograd backward node (autograd_links.h), a view — a reshape of a
// contiguous tensor, the same bytes — of the newest tensor the node's kernels read or wrote that
// has its dtype, a plain layout and its byte count (the convolution's bias gradient, a ReduceSum
// over [N, C, H·W], reads the node's dy [N, C, H, W]); held if L2 still holds that tensor.
enum class ViewInputs : std::uint8_t { New, NodeViews };

// The walk's rules for the reads it cannot name by identity (`--l2-scalars`, `--l2-views`).
struct TimelineReads {
    ScalarInputs scalars = ScalarInputs::Cold;
    ViewInputs views = ViewInputs::New;
};

// `codeBytes` > 0: each row also reads its binary's code image of that size (code_residency.h's
// binary), first, and codeHeld says whether it was held. The tensors' residency is then walked
// beside the code images, so a caller that wants the tensors' alone walks without them.
L2Timeline l2Timeline(const RealProfile& profile, std::uint64_t l2Bytes, TimelineStart start = TimelineStart::SteadyState,
                      std::uint64_t codeBytes = 0, TimelineReads reads = {});

}  // namespace ascendsim
