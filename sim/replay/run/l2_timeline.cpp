#include "sim/replay/run/l2_timeline.h"

#include <algorithm>
#include <map>
#include <string>
#include <utility>

#include "sim/replay/run/autograd_tensors.h"
#include "sim/replay/run/code_residency.h"
#include "sim/replay/run/inplace_kernels.h"
#include "sim/replay/run/l2_tensor_lru.h"
#include "sim/replay/run/tensor_identity.h"

namespace ascendsim {

namespace {

// The dtype cell of a code image's key and the kernel that touches them: no tensor has it.
constexpr const char* kCodeImage = "code image";

std::uint64_t bytesAt(const std::vector<std::uint64_t>& bytes, std::size_t j) { return j < bytes.size() ? bytes[j] : 0; }

// The kernel a row launches, for TensorLru::find: op type and tensors.
std::string kernelOf(const RealKernel& k) {
    return k.type + '|' + k.inputShapes + '|' + k.inputDtypes + '|' + k.outputShapes + '|' + k.outputDtypes;
}

// One side of a row matched against L2: the held tensor of each of its tensors (null: not held),
// none of them one of `taken` (the tensors the row's other side already matched). A tensor whose
// identity the data flow names (`named`, per tensor; kUnknownTensor for none) is that tensor, held
// or not; the others, matched after them, take the newest held tensor of their identity
// (TensorLru::find); an input of neither, of a kernel in an autograd backward node (`node`), may
// be a view of a tensor the node touched (NodeTensors) — unless `forwardIdentity[j]`: its forward
// op read a tensor of that identity, so it is that op's tensor, not a reshape made in the node — and
// one still unmatched (and not such a forward identity) a view of an output the kernel launched just
// before wrote (`previous`, l2Timeline).
std::vector<const void*> match(const TensorLru& lru, const std::vector<TensorKey>& keys,
                               const std::vector<std::uint64_t>& bytes, const std::string& kernel, bool eligible,
                               const std::vector<const void*>& taken = {}, const std::vector<std::uint64_t>& named = {},
                               const NodeTensors* node = nullptr, const std::vector<bool>& forwardIdentity = {},
                               const NodeTensors* previous = nullptr) {
    std::vector<const void*> found(keys.size(), nullptr);
    std::vector<const void*> claimed = taken;
    const auto nameOf = [&](std::size_t j) { return j < named.size() ? named[j] : kUnknownTensor; };
    const auto tracked = [&](std::size_t j) { return eligible && !std::get<0>(keys[j]).empty() && bytesAt(bytes, j) > 0; };
    for (std::size_t j = 0; j < keys.size(); ++j) {
        if (!tracked(j) || nameOf(j) == kUnknownTensor) continue;
        found[j] = lru.findById(keys[j], nameOf(j));
        if (found[j] != nullptr) claimed.push_back(found[j]);
    }
    for (std::size_t j = 0; j < keys.size(); ++j) {
        if (!tracked(j) || nameOf(j) != kUnknownTensor) continue;
        found[j] = lru.find(keys[j], kernel, claimed);
        claimed.push_back(found[j]);
    }
    // Views: the node's tensors first, then the previous kernel's writes (one rule, two sources).
    for (const NodeTensors* source : {node, previous}) {
        for (std::size_t j = 0; source != nullptr && j < keys.size(); ++j) {
            if (!tracked(j) || found[j] != nullptr || nameOf(j) != kUnknownTensor) continue;
            if (j < forwardIdentity.size() && forwardIdentity[j]) continue;
            found[j] = source->viewSource(lru, keys[j], bytesAt(bytes, j), claimed);
            if (found[j] != nullptr) claimed.push_back(found[j]);
        }
    }
    return found;
}

// The held tensors of `k`'s input identities that a backward node other than `k`'s and the one
// before it wrote (§146): a backward kernel reads what its forward op saved (written in the forward
// pass) and the gradient its node received (written by the node before it), never an older node's
// gradient — though that one may have been read since (a view read, §140g, keeps it held). None
// for a kernel outside a backward node.
std::vector<const void*> gradientsOfOtherNodes(const TensorLru& lru, const RealProfile& profile, const RealKernel& k,
                                               const std::vector<TensorKey>& inputs, std::size_t previousNode) {
    std::vector<const void*> others;
    if (k.backwardOf == RealKernel::kNoAutogradOp) return others;
    for (const TensorKey& key : inputs) {
        if (std::get<0>(key).empty()) continue;
        for (const void* tensor : lru.heldOf(key)) {
            const std::size_t row = lru.writtenRowOf(tensor);
            if (row == TensorWriter::kNone || row >= profile.kernels.size()) continue;
            const std::size_t node = profile.kernels[row].backwardOf;
            if (node != RealKernel::kNoAutogradOp && node != k.backwardOf && node != previousNode) others.push_back(tensor);
        }
    }
    return others;
}

// The input of a backward kernel that its op's signature gives as its forward op's output, or
// inputs.size() and beyond for none (§146g). ReluGrad(gradients, features): features is relu's
// output y (CANN impl/dynamic/relu_grad.py, relu_grad(input_gradients, input_features, ...):
// backprops = gradients · (features > 0); torch's ReluBackward0 saves the result). Its two inputs
// share one identity, so the shape rule cannot tell the saved output from the incoming gradient.
std::size_t forwardOutputInput(const RealKernel& k) {
    constexpr std::size_t kNone = static_cast<std::size_t>(-1);
    return k.type == "ReluGrad" ? 1 : kNone;
}

// The indices of the held tensors, least recently used first, and (with `writers`) the write
// that last touched each.
std::vector<std::size_t> heldOf(const TensorLru& lru, const std::vector<const void*>& found,
                                std::vector<TensorWriter>* writers = nullptr) {
    std::vector<std::pair<std::uint64_t, std::size_t>> held;  // (stamp, j)
    for (std::size_t j = 0; j < found.size(); ++j)
        if (found[j] != nullptr) held.emplace_back(lru.stampOf(found[j]), j);
    std::sort(held.begin(), held.end());
    std::vector<std::size_t> indices;
    for (const auto& [stamp, j] : held) {
        indices.push_back(j);
        if (writers != nullptr) writers->push_back(lru.writerOf(found[j]));
    }
    return indices;
}

constexpr std::size_t kNewTensor = static_cast<std::size_t>(-1);

// Per output of the row: the input whose memory it is (inplace_kernels.h; a recorded output must
// have that input's identity), or kNewTensor.
std::vector<std::size_t> overwrittenInputs(const RealKernel& k, const std::vector<TensorKey>& inputs,
                                           const std::vector<TensorKey>& outputs) {
    const std::vector<std::size_t> written = inPlaceInputs(k);
    std::vector<std::size_t> of(outputs.size(), kNewTensor);
    for (std::size_t j = 0; j < outputs.size() && j < written.size(); ++j)
        if (written[j] < inputs.size() && inputs[written[j]] == outputs[j]) of[j] = written[j];
    return of;
}

// The inputs the row writes over that its profile row records no output for (ApplyAdamWV2's var,
// m and v).
std::vector<std::size_t> unrecordedWrites(const RealKernel& k, const std::vector<TensorKey>& inputs,
                                          const std::vector<TensorKey>& outputs) {
    const std::vector<std::size_t> written = inPlaceInputs(k);
    std::vector<std::size_t> unrecorded;
    for (std::size_t j = outputs.size(); j < written.size(); ++j)
        if (written[j] < inputs.size()) unrecorded.push_back(written[j]);
    return unrecorded;
}

// The share of the lines a row brings into L2 (inputs it reads cold, outputs it allocates) whose
// victim is dirty: the held tensors it pushes out, oldest first, beyond what L2 has free. An
// output written over an input (`overwritten`) brings nothing in: its lines are the input's. With
// `dirtyOnly`, the victims are taken among the dirty tensors only, oldest first: the most of those
// lines whose victims can be dirty (L2Timeline::dirtyVictimBound).
double victimDirtyShare(const TensorLru& lru, std::uint64_t capacity, const std::vector<TensorKey>& inputs,
                        const std::vector<std::uint64_t>& inBytes, const std::vector<const void*>& readHeld,
                        const std::vector<TensorKey>& outputs, const std::vector<std::uint64_t>& outBytes,
                        const std::vector<const void*>& writeHeld, const std::vector<std::size_t>& overwritten,
                        bool dirtyOnly) {
    std::uint64_t incoming = 0;
    std::vector<const void*> spared;
    for (std::size_t j = 0; j < inputs.size(); ++j) {
        if (readHeld[j] != nullptr) spared.push_back(readHeld[j]);
        else if (!std::get<0>(inputs[j]).empty()) incoming += bytesAt(inBytes, j);
    }
    for (std::size_t j = 0; j < outputs.size(); ++j) {
        if (writeHeld[j] != nullptr) spared.push_back(writeHeld[j]);
        else if (!std::get<0>(outputs[j]).empty() && overwritten[j] == kNewTensor) incoming += bytesAt(outBytes, j);
    }
    if (incoming == 0) return 0.0;
    const std::uint64_t held = lru.bytesHeld();
    const std::uint64_t evicted = held + incoming > capacity ? std::min(held, held + incoming - capacity) : 0;
    const double dirty = lru.dirtyBytesOfOldest(evicted, spared, dirtyOnly);
    return std::min(1.0, dirty / static_cast<double>(std::min(incoming, capacity)));
}

}  // namespace

L2Timeline l2Timeline(const RealProfile& profile, std::uint64_t l2Bytes, TimelineStart start, std::uint64_t codeBytes,
                      TimelineReads reads) {
    const std::size_t rows = profile.kernels.size();
    L2Timeline timeline;
    timeline.residentInputs.resize(rows);
    timeline.residentOutputs.resize(rows);
    if (codeBytes > 0) timeline.codeHeld.resize(rows);
    timeline.residentWriters.resize(rows);
    timeline.victimDirtyShare.resize(rows);
    timeline.dirtyVictimBound.resize(rows);
    TensorLru lru(l2Bytes);
    std::map<std::size_t, SavedTensors> savedBy;  // forward op (RealKernel::forwardOp) → its tensors
    std::map<std::size_t, NodeTensors> nodeTensors;  // backward node (RealKernel::backwardOf) → its tensors
    // The backward node running and the one before it (RealKernel::backwardOf, kNoAutogradOp: none yet).
    std::size_t currentNode = RealKernel::kNoAutogradOp, previousNode = RealKernel::kNoAutogradOp;
    // The new tensors the row before wrote. An input of a plain layout no held tensor's identity
    // matches, with the dtype and byte count of one of them, is that tensor under another shape: the
    // framework reshaped it between the two launches (a view — aten::view / flatten in the forward
    // pass, ViewBackward0 in the backward — or the aclnn API's own reshape of its input, e.g.
    // AdaptiveAvgPool2d's [N, C, 1, H, W] of the [N, C, H, W] the TransData before wrote; §144e).
    NodeTensors previousWrites;
    // Steady state: a first walk leaves L2 as the profile's last kernels do; the second records.
    const std::size_t walks = start == TimelineStart::SteadyState ? 2 : 1;
    for (std::size_t n = 0; n < walks * rows; ++n) {
        const std::size_t i = n % rows;
        const RealKernel& k = profile.kernels[i];
        lru.startRow(n);
        const std::string kernel = kernelOf(k);
        NodeTensors writes;  // this row's new tensors: the next row's previousWrites
        const auto inputs = inputKeys(k), outputs = outputKeys(k);
        const auto inBytes = tensorBytesOfSide(k, true), outBytes = tensorBytesOfSide(k, false);
        // A kernel whose own MemSet cleared its output writes into the tensor the MemSet wrote.
        const bool copyInto = isCopyIntoExisting(k) || k.outputClearedByMemSet;
        const std::vector<std::size_t> overwritten = overwrittenInputs(k, inputs, outputs);
        if (codeBytes > 0 && runsOnAiCores(k)) {
            // A binary's code is one image whichever kernel runs it: found by any launch, never
            // excluded as a loop's next tensor is (the reader "" touches nothing).
            const TensorKey code{std::to_string(codeBinaryOf(k, profile.hasShapes)), kCodeImage, ""};
            const void* held = lru.find(code, "", {});
            timeline.codeHeld[i] = held != nullptr;
            if (held != nullptr) lru.use(code, held, codeBytes, kCodeImage, TensorWriter{});
            else lru.add(code, codeBytes, kCodeImage, TensorWriter{});
        }
        if (k.backwardOf != RealKernel::kNoAutogradOp && k.backwardOf != currentNode) {
            previousNode = currentNode;
            currentNode = k.backwardOf;
        }
        // A backward node's kernel reads the tensors its forward op saved, held or not.
        std::vector<std::uint64_t> named;
        const auto forward = savedBy.find(k.backwardOf);
        if (k.backwardOf != RealKernel::kNoAutogradOp && forward != savedBy.end() && forward->second.walk == n / rows) {
            named.assign(inputs.size(), kUnknownTensor);
            for (std::size_t j = 0; j < inputs.size(); ++j) named[j] = forward->second.savedTensor(inputs[j]);
            // An input the op's signature gives as the forward op's output is the tensor that op wrote.
            const std::size_t output = forwardOutputInput(k);
            if (output < inputs.size() && named[output] == kUnknownTensor)
                named[output] = forward->second.outputTensor(inputs[output]);
        }
        // Inputs of an identity the forward op read are never views (§146: AdaptiveAvgPool3dGrad's
        // saved x [32,256,1,6,6], which the forward's Transpose read, is not the node's dy [8192,1,6,6]).
        std::vector<bool> forwardIdentity(inputs.size(), false);
        for (std::size_t j = 0; !named.empty() && j < inputs.size(); ++j)
            forwardIdentity[j] = forward->second.readIdentity(inputs[j]);
        NodeTensors* node = nullptr;
        if (reads.views == ViewInputs::NodeViews && k.backwardOf != RealKernel::kNoAutogradOp) {
            node = &nodeTensors[k.backwardOf];
            node->startWalk(n / rows);
        }
        const auto readHeld = match(lru, inputs, inBytes, kernel, true,
                                    gradientsOfOtherNodes(lru, profile, k, inputs, previousNode), named, node,
                                    forwardIdentity, &previousWrites);
        // A copy's target is another tensor than its source (copy_(self, src)), and a kernel
        // accumulating into the tensor its MemSet cleared does not read it as an input.
        const auto writeHeld = match(lru, outputs, outBytes, kernel, copyInto, readHeld);
        timeline.residentWriters[i].clear();
        timeline.residentInputs[i] = heldOf(lru, readHeld, &timeline.residentWriters[i]);
        timeline.residentOutputs[i] = heldOf(lru, writeHeld);
        // A 0-d input (no shape cell, but bytes) is held, newest, with no writer: its line is whole.
        for (std::size_t j = 0; reads.scalars == ScalarInputs::Held && j < inputs.size(); ++j) {
            if (!std::get<0>(inputs[j]).empty() || bytesAt(inBytes, j) == 0) continue;
            timeline.residentInputs[i].push_back(j);
            timeline.residentWriters[i].push_back(TensorWriter{});
        }
        timeline.victimDirtyShare[i] = victimDirtyShare(lru, l2Bytes, inputs, inBytes, readHeld, outputs, outBytes, writeHeld,
                                                        overwritten, false);
        timeline.dirtyVictimBound[i] = victimDirtyShare(lru, l2Bytes, inputs, inBytes, readHeld, outputs, outBytes,
                                                        writeHeld, overwritten, true);
        // A view read touches its source under the source's identity; taken now, while every
        // tensor matched is held (the row's reads may push one out before its turn).
        std::vector<TensorKey> readKeys = inputs;
        for (std::size_t j = 0; j < inputs.size(); ++j)
            if (readHeld[j] != nullptr) readKeys[j] = lru.keyOf(readHeld[j]);
        // Reads first, then writes; each tensor becomes the most recently used.
        std::vector<const void*> read(inputs.size(), nullptr);
        std::vector<std::uint64_t> readIds(inputs.size(), kUnknownTensor);
        for (std::size_t j = 0; j < inputs.size(); ++j) {
            if (std::get<0>(inputs[j]).empty()) continue;
            read[j] = readHeld[j] != nullptr ? lru.use(readKeys[j], readHeld[j], bytesAt(inBytes, j), kernel, TensorWriter{})
                                             : lru.add(inputs[j], bytesAt(inBytes, j), kernel, TensorWriter{});
            // Taken now: the row's later tensors may push this one out.
            if (read[j] != nullptr) readIds[j] = lru.idOf(read[j]);
            if (read[j] != nullptr && readKeys[j] != inputs[j]) lru.addAlias(read[j], inputs[j]);
            // A view read is recorded as its source (the tensor it touched, under that one's identity).
            if (node != nullptr && readIds[j] != kUnknownTensor)
                node->touched.push_back({readKeys[j], bytesAt(inBytes, j), readIds[j]});
        }
        SavedTensors* saved = nullptr;
        if (k.forwardOp != RealKernel::kNoAutogradOp) {
            saved = &savedBy[k.forwardOp];
            saved->startWalk(n / rows);
            for (std::size_t j = 0; j < inputs.size(); ++j)
                if (readIds[j] != kUnknownTensor) saved->noteRead(inputs[j], readIds[j]);
        }
        // Written in place: the read above already made each input newest; now it is dirty.
        for (std::size_t j : unrecordedWrites(k, inputs, outputs)) lru.markWritten(read[j], bytesAt(inBytes, j));
        for (std::size_t j = 0; j < outputs.size(); ++j) {
            if (std::get<0>(outputs[j]).empty()) continue;
            if (overwritten[j] != kNewTensor) {
                lru.markWritten(read[overwritten[j]], bytesAt(inBytes, overwritten[j]));
                if (saved != nullptr) saved->noteWritten(outputs[j], readIds[overwritten[j]]);
                continue;
            }
            const TensorWriter writer{i, j};
            const void* written = writeHeld[j] != nullptr
                                      ? lru.use(outputs[j], writeHeld[j], bytesAt(outBytes, j), kernel, writer)
                                      : lru.add(outputs[j], bytesAt(outBytes, j), kernel, writer);
            if (saved != nullptr) saved->noteWritten(outputs[j], written != nullptr ? lru.idOf(written) : kUnknownTensor);
            if (written == nullptr || lru.idOf(written) == kUnknownTensor) continue;
            if (node != nullptr) node->touched.push_back({outputs[j], bytesAt(outBytes, j), lru.idOf(written)});
            writes.touched.push_back({outputs[j], bytesAt(outBytes, j), lru.idOf(written)});
        }
        previousWrites = std::move(writes);
    }
    return timeline;
}

}  // namespace ascendsim
