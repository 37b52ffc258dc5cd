#pragma once
// What the L2 timeline (l2_timeline.h) records of autograd's data flow (autograd_links.h), by the
// TensorLru's tensor ids: the tensors a forward op's kernels read and wrote (the ones its backward
// node may read as saved), and the tensors a backward node's kernels touched (the ones a later
// kernel of the node may read a view of). docs/fidelity.md §140, §140g, §146.
#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

#include "sim/replay/run/l2_tensor_lru.h"
#include "sim/replay/run/tensor_identity.h"

namespace ascendsim {

// No tensor the walk can name (TensorLru::idOf of a remnant, or none recorded).
constexpr std::uint64_t kUnknownTensor = 0;

// The tensors the kernels of one autograd backward node read and wrote in the current walk
// (autograd_links.h). Under ViewInputs::NodeViews, a later kernel of the node whose input has an
// identity L2 holds no tensor of, but one of these tensors' dtype, plain layout and byte count,
// reads a view of it (docs/fidelity.md §140g: the convolution's bias gradient, a ReduceSum over
// [N, C, H·W], reads the node's dy [N, C, H, W], which the node's first kernel, the TransData to
// NC1HWC0, read; a reshape of a contiguous tensor is the same bytes).
struct NodeTensors {
    struct Touched {
        TensorKey key;
        std::uint64_t bytes;
        std::uint64_t id;
    };
    std::size_t walk = 0;
    std::vector<Touched> touched;  // oldest first

    // The walk `pass` starts recording: what an earlier walk recorded is forgotten.
    void startWalk(std::size_t pass);
    // The newest tensor of the node that `key` (`bytes`) may be a view of; null when none is held
    // or `claimed` has it.
    const void* viewSource(const TensorLru& lru, const TensorKey& key, std::uint64_t bytes,
                           const std::vector<const void*>& claimed) const;
};

// What a forward op's kernels read and wrote in the current walk (autograd_links.h): the tensors
// its backward node may read as saved ones. A tensor of an identity the op also wrote (an
// elementwise op's output, a cast's intermediate) or read twice as different tensors is not named:
// the profile does not say which of them autograd saved.
struct SavedTensors {
    std::size_t walk = 0;
    std::map<TensorKey, std::uint64_t> read;  // identity → the tensor read (kUnknownTensor: two were)
    std::map<TensorKey, bool> written;
    std::map<TensorKey, std::uint64_t> wrote;  // identity → the tensor written (kUnknownTensor: two were)

    // The walk `pass` starts recording: what an earlier walk recorded is forgotten.
    void startWalk(std::size_t pass);
    void noteRead(const TensorKey& key, std::uint64_t id);
    void noteWritten(const TensorKey& key, std::uint64_t id);
    bool readIdentity(const TensorKey& key) const { return read.count(key) > 0; }
    // The one tensor of `key` the op wrote (in place or new); kUnknownTensor when none or several.
    std::uint64_t outputTensor(const TensorKey& key) const;
    // The tensor of `key` the backward reads as saved; kUnknownTensor when not named.
    std::uint64_t savedTensor(const TensorKey& key) const;
};

}  // namespace ascendsim
