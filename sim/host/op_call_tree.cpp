#include "sim/host/op_call_tree.h"

#include <cctype>
#include <string_view>

namespace ascendsim {

namespace {

struct FamilyNode {
    std::string_view name;
    std::uint32_t depth;
    SequenceRole role;
    bool launchSite;
};

struct Family {
    std::string_view atenName;
    std::vector<FamilyNode> nodes;
};

using R = SequenceRole;

// Forward nesting per op family. Rows marked [trace] are as seen in the real Level2 trace
// (msinsight/e5a31957 .../level2/rank0 trace_view.json); the others follow PyTorch's dispatch of
// the composite op to its autograd-visible native op (native_functions.yaml), same pattern.
const std::vector<Family>& forwardFamilies() {
    static const std::vector<Family> families = {
        {"aten::conv2d",  // [trace]
         {{"aten::conv2d", 0, R::Peek, false},
          {"aten::convolution", 1, R::Take, false},
          {"aten::_convolution", 2, R::None, true}}},
        {"aten::linear",  // [trace]: t() for the weight, then addmm
         {{"aten::linear", 0, R::Peek, false},
          {"aten::t", 1, R::Take, false},
          {"aten::transpose", 2, R::None, false},
          {"aten::as_strided", 3, R::None, false},
          {"aten::addmm", 1, R::Take, true}}},
        {"aten::max_pool2d",  // [trace]
         {{"aten::max_pool2d", 0, R::Peek, false},
          {"aten::max_pool2d_with_indices", 1, R::Take, true}}},
        {"aten::adaptive_avg_pool2d",  // [trace]
         {{"aten::adaptive_avg_pool2d", 0, R::None, false},
          {"aten::_adaptive_avg_pool2d", 1, R::Take, true}}},
        {"aten::dropout",  // [trace]
         {{"aten::dropout", 0, R::None, false}, {"npu::_npu_dropout", 1, R::Take, true}}},
        {"aten::log_softmax",  // [trace]
         {{"aten::log_softmax", 0, R::None, false}, {"aten::_log_softmax", 1, R::Take, true}}},
        {"aten::to",  // [trace]: dtype casts and host->device copies
         {{"aten::to", 0, R::Peek, false},
          {"aten::_to_copy", 1, R::Take, false},
          {"aten::copy_", 2, R::None, true}}},
        {"aten::item",  // [trace]: the .item() that synchronizes
         {{"aten::item", 0, R::None, false}, {"aten::_local_scalar_dense", 1, R::None, true}}},
        {"aten::softmax",
         {{"aten::softmax", 0, R::Peek, false}, {"aten::_softmax", 1, R::Take, true}}},
        {"aten::batch_norm",
         {{"aten::batch_norm", 0, R::Peek, false},
          {"aten::_batch_norm_impl_index", 1, R::Peek, false},
          {"aten::native_batch_norm", 2, R::Take, true}}},
        {"aten::layer_norm",
         {{"aten::layer_norm", 0, R::Peek, false},
          {"aten::native_layer_norm", 1, R::Take, true}}},
        {"aten::matmul",
         {{"aten::matmul", 0, R::Peek, false}, {"aten::mm", 1, R::Take, true}}},
        {"aten::embedding",
         {{"aten::embedding", 0, R::Take, false}, {"aten::index_select", 1, R::None, true}}},
        {"aten::scaled_dot_product_attention",
         {{"aten::scaled_dot_product_attention", 0, R::Peek, false},
          {"npu::npu_fusion_attention", 1, R::Take, true}}},
    };
    return families;
}

// The native backward op an autograd node calls (PyTorch derivatives.yaml); [trace] as seen.
struct BackwardInner {
    std::string_view node;
    std::vector<std::string_view> path;
};

const std::vector<BackwardInner>& backwardFamilies() {
    static const std::vector<BackwardInner> table = {
        {"ConvolutionBackward0", {"aten::convolution_backward"}},
        {"AddmmBackward0", {"aten::mm"}},  // [trace]
        {"MmBackward0", {"aten::mm"}},
        {"ReluBackward0", {"aten::threshold_backward"}},
        {"NativeBatchNormBackward0", {"aten::native_batch_norm_backward"}},
        {"MaxPool2DWithIndicesBackward0", {"aten::max_pool2d_with_indices_backward"}},
        {"NativeLayerNormBackward0", {"aten::native_layer_norm_backward"}},
        {"SoftmaxBackward0", {"aten::_softmax_backward_data"}},
        {"LogSoftmaxBackward0", {"aten::_log_softmax_backward_data"}},  // [trace]
        {"NllLossBackward0", {"aten::nll_loss_backward"}},              // [trace]
        {"GeluBackward0", {"aten::gelu_backward"}},
        {"EmbeddingBackward0", {"aten::embedding_backward", "aten::embedding_dense_backward"}},
        {"MeanBackward1", {"aten::div"}},
    };
    return table;
}

constexpr std::string_view kEvaluateFunctionPrefix = "autograd::engine::evaluate_function: ";

bool namesATorchOp(const std::string& name) {
    return name.find("::") != std::string::npos;
}

std::vector<CallNode> forwardTree(const FrameworkOp& op);

std::vector<CallNode> backwardTree(const FrameworkOp& op, const FrameworkOp* forward) {
    // Named by the native backward op: the autograd node comes from the forward op, the given
    // name is the op the node calls.
    const bool namedByNativeOp = forward != nullptr && namesATorchOp(op.atenName);
    const std::string node = namedByNativeOp ? autogradNodeName(*forward) : op.atenName;
    std::vector<CallNode> nodes;
    nodes.push_back({std::string(kEvaluateFunctionPrefix) + node, 0, R::None, false});
    nodes.push_back({node, 1, R::BackwardNode, false});
    std::vector<std::string> path = op.callPath;
    if (path.empty() && namedByNativeOp) path.push_back(op.atenName);
    if (path.empty()) {
        for (const auto& row : backwardFamilies()) {
            if (row.node == op.atenName) {
                path.assign(row.path.begin(), row.path.end());
                break;
            }
        }
    }
    for (std::size_t i = 0; i < path.size(); ++i) {
        nodes.push_back({path[i], static_cast<std::uint32_t>(2 + i), R::None, false});
    }
    nodes.back().launchSite = true;
    return nodes;
}

std::vector<CallNode> forwardTree(const FrameworkOp& op) {
    const bool grad = op.phase == OpPhase::Forward && op.requiresGrad;
    std::vector<CallNode> nodes;
    if (!op.callPath.empty()) {
        nodes.push_back({op.atenName, 0, grad ? R::Peek : R::None, false});
        for (std::size_t i = 0; i < op.callPath.size(); ++i) {
            const R role = (grad && i == 0) ? R::Take : R::None;
            nodes.push_back({op.callPath[i], static_cast<std::uint32_t>(1 + i), role, false});
        }
        nodes.back().launchSite = true;
        return nodes;
    }
    for (const auto& family : forwardFamilies()) {
        if (family.atenName != op.atenName) continue;
        for (const auto& n : family.nodes) {
            nodes.push_back({std::string(n.name), n.depth, grad ? n.role : R::None, n.launchSite});
        }
        return nodes;
    }
    // Unknown family: a single autograd-visible op (aten::relu_, aten::add, aten::mul, ...).
    nodes.push_back({op.atenName, 0, grad ? R::Take : R::None, true});
    return nodes;
}

// A native backward op (derivatives.yaml: "input, weight, bias: convolution_backward(...)") returns
// the gradients of all inputs from one call; other ops a backward node calls (aten::mm) compute
// one.
bool computesSeveralGradients(const std::string& nativeOp) {
    constexpr std::string_view suffix = "_backward";
    return nativeOp.size() > suffix.size() &&
           nativeOp.compare(nativeOp.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool callsANativeOp(const FrameworkOp& op, const FrameworkOp* forward) {
    return backwardTree(op, forward).size() > 2;
}

}  // namespace

namespace {
// `next` continues the torch op `previous` belongs to: same op from the same place, launching
// another kernel (the same kernel again is the op called again, as in a loop).
bool continuesTorchOp(const FrameworkOp& previous, const FrameworkOp& next) {
    return previous.phase == next.phase && previous.atenName == next.atenName &&
           !previous.modulePath.empty() && previous.modulePath == next.modulePath &&
           previous.stackFrames == next.stackFrames && !previous.kernels.empty() &&
           !next.kernels.empty() &&
           previous.kernels.front().kernelName != next.kernels.front().kernelName;
}
}  // namespace

std::uint32_t torchCallLength(const std::vector<FrameworkOp>& ops, std::uint32_t first) {
    const FrameworkOp& lead = ops[first];
    if (lead.phase != OpPhase::Backward) {
        std::uint32_t end = first + 1;
        while (end < ops.size() && continuesTorchOp(ops[end - 1], ops[end])) ++end;
        return end - first;
    }
    if (lead.forwardOpIndex < 0) return 1;
    const FrameworkOp* forward = &ops[static_cast<std::size_t>(lead.forwardOpIndex)];
    if (!callsANativeOp(lead, forward)) return 1;
    std::uint32_t end = first + 1;
    while (end < ops.size() && ops[end].phase == OpPhase::Backward &&
           ops[end].forwardOpIndex == lead.forwardOpIndex && callsANativeOp(ops[end], forward)) {
        ++end;
    }
    return end - first;
}

std::vector<CallNode> buildAutogradCallTree(const std::vector<const FrameworkOp*>& members,
                                            const FrameworkOp* forward) {
    std::vector<CallNode> nodes = backwardTree(*members.front(), forward);
    if (members.size() == 1) return nodes;
    nodes.resize(2);  // evaluate_function and the node; the native ops follow per member run
    for (std::uint32_t i = 0; i < members.size();) {
        std::uint32_t end = i + 1;
        while (end < members.size() && members[end]->atenName == members[i]->atenName &&
               computesSeveralGradients(members[i]->atenName)) {
            ++end;
        }
        const std::vector<CallNode> own = backwardTree(*members[i], forward);
        for (auto node = own.begin() + 2; node != own.end(); ++node) {
            nodes.push_back(*node);
            nodes.back().firstMember = i;  // its records show this member's inputs
        }
        nodes.back().memberCount = end - i;
        i = end;
    }
    return nodes;
}

std::vector<CallNode> buildCallTree(const FrameworkOp& op, const FrameworkOp* forward) {
    return op.phase == OpPhase::Backward ? backwardTree(op, forward) : forwardTree(op);
}

std::string autogradNodeName(const FrameworkOp& forward) {
    FrameworkOp grad = forward;
    grad.phase = OpPhase::Forward;
    grad.requiresGrad = true;
    std::string taker = forward.atenName;
    for (const CallNode& n : forwardTree(grad))
        if (n.role == R::Take) taker = n.name;
    std::string base =
        taker.substr(taker.rfind("::") == std::string::npos ? 0 : taker.rfind("::") + 2);
    while (!base.empty() && base.back() == '_') base.pop_back();  // in-place relu_ -> relu
    std::string name;
    bool afterLetter = false;
    for (char c : base) {
        const bool letter = std::isalpha(static_cast<unsigned char>(c)) != 0;
        if (c != '_') {
            name += letter ? static_cast<char>(afterLetter
                                                   ? std::tolower(static_cast<unsigned char>(c))
                                                   : std::toupper(static_cast<unsigned char>(c)))
                           : c;
        }
        afterLetter = letter;
    }
    return name + "Backward0";
}

}  // namespace ascendsim
