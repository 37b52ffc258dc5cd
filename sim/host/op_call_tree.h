#pragma once
// The nested torch op records one framework op produces, e.g. aten::conv2d > aten::convolution >
// aten::_convolution, with which record takes an autograd sequence number and where the NPU op
// is launched. Data-driven: one table row per op family (op_call_tree.cpp), overridable per op
// through FrameworkOp::callPath.
#include <cstdint>
#include <string>
#include <vector>

#include "sim/host/framework_op.h"

namespace ascendsim {

// How a record gets its "Sequence number" (PyTorch RecordFunction + autograd):
enum class SequenceRole : std::uint8_t {
    None,          // -1: below the autograd key, or no grad
    Peek,          // composite op: shows the next sequence number without taking it
    Take,          // autograd node created here: shows the number, then advances it
    BackwardNode,  // the autograd node's backward record: the forward op's number, Fwd thread id 1
};

struct CallNode {
    std::string name;
    std::uint32_t depth = 0;  // 0: the top-level op
    SequenceRole role = SequenceRole::None;
    bool launchSite = false;  // outputs are allocated and the NPU op is enqueued inside this record
    // In an autograd call (buildAutogradCallTree): the member whose inputs the record shows and,
    // at a launch site, the members it launches from there.
    std::uint32_t firstMember = 0;
    std::uint32_t memberCount = 1;
};

// The records of `op` in pre-order (parents before children). Exactly one node is the launch site.
// A Backward op named by its native op ("aten::convolution_backward") rather than by its autograd
// node gets the node PyTorch would create for `forward` ("ConvolutionBackward0") above it.
std::vector<CallNode> buildCallTree(const FrameworkOp& op, const FrameworkOp* forward = nullptr);

// How many ops from `first` on are one torch-level call. Backward: the consecutive Backward ops of
// one forward op whose trees name a native op (PyTorch runs the node once, and it computes the
// gradient of every input: ConvolutionBackward0 gives grad_input and grad_weight). Forward and
// optimizer: consecutive ops of the same phase, aten name, module path (non-empty) and stack that
// launch different kernels, the workload format's way of writing one torch op that launches
// several kernels (training aten::batch_norm: BNTrainingReduce + BNTrainingUpdate). 1 otherwise.
std::uint32_t torchCallLength(const std::vector<FrameworkOp>& ops, std::uint32_t first);

// The records of one autograd call (members as torchCallLength groups them): the engine's
// evaluate_function and the node once, then the native ops. Consecutive members naming the same
// native *_backward op share its record (one aten::convolution_backward launches both
// Conv2DBackpropInput and Conv2DBackpropFilter); other native ops (AddmmBackward0's two aten::mm)
// get a record each. Each launch site says which members it launches.
std::vector<CallNode> buildAutogradCallTree(const std::vector<const FrameworkOp*>& members,
                                            const FrameworkOp* forward);

// PyTorch's autograd node name for the op that took the sequence number in `forward`:
// base name title-cased per '_' part (str.title: "pool2d" -> "Pool2D"), in-place '_' dropped,
// "Backward0" appended ("aten::native_batch_norm" -> "NativeBatchNormBackward0").
std::string autogradNodeName(const FrameworkOp& forward);

}  // namespace ascendsim
