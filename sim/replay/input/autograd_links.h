#pragma once
// Which framework op launched each kernel, as far as autograd links ops (docs/fidelity.md §140).
// torch_npu's text export records it in trace_view.json:
// - "cpu_op" events (ph "X"): the framework ops on each host thread, with their spans (ts, dur);
// - "async_npu" flows ("torch_to_npu"): the start ("s") sits at the launch on the host thread that
//   launched a kernel, the end ("f") at the kernel's start on the device (kernel_details' Start
//   Time, to the ns), so a kernel's launching ops are the cpu_ops whose span holds the "s" point;
// - "fwdbwd" flows: the start at a forward op (e.g. aten::convolution), the end at the autograd
//   node that is its backward (ConvolutionBackward0, on the autograd thread). Autograd's backward
//   node reads the tensors its forward op saved (the forward's inputs: the convolution's x and
//   weight), so a kernel launched inside that node reads those very tensors, not any other tensor
//   of their shape written since.
// The DB export records the same in PYTORCH_API (sequenceNumber, fwdThreadId: a forward op and its
// backward node share the sequence number, the node's fwdThreadId > 0) and in TASK.connectionId →
// CONNECTION_IDS → PYTORCH_API.connectionId (the op that launched the task). Exports with neither
// (the Qwen3 level2 text: no trace_view.json) leave every kernel unlinked
// (RealKernel::kNoAutogradOp), and the L2 timeline keeps its shape rule for them.
#include <filesystem>
#include <string_view>
#include <vector>

#include "sim/replay/input/real_profile.h"
#include "sim/replay/input/sqlite_reader.h"

namespace ascendsim {

// Sets each kernel's forwardOp / backwardOf from a trace_view.json text: the innermost linked op
// whose span holds the kernel's launch. Links are numbered in the order of their forward ops'
// starts. Kernels without a recorded start or launch stay unlinked.
void attributeAutogradLinks(std::string_view traceViewJson, std::vector<RealKernel>& kernels);

// The same from trace_view.json beside `kernelDetails`; nothing when there is none.
void readAutogradLinks(const std::filesystem::path& kernelDetails, std::vector<RealKernel>& kernels);

// The same from the DB export's tables (kernels keyed by RealKernel::sourceLine, the
// globalTaskId); nothing when the tables are absent.
void readDbAutogradLinks(const SqliteReader& db, std::vector<RealKernel>& kernels);

}  // namespace ascendsim
