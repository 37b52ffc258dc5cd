#pragma once
// Conv ops lowered and run on the FunctionalMachine for the cube conv tests, checked against the
// naive references of cube_conv_reference.h.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/kernels/cube/conv/conv2d_geometry.h"
#include "models/kernels/cube/conv/conv2d_operands.h"
#include "tests/models/kernels/cube_conv_reference.h"
#include "tests/models/kernels/cube_test_support.h"

namespace ascendsim::test {

// The strides / pads / dilations / groups attributes of `s`.
inline void setConvAttrs(OpInstance& op, const ConvShape& s) {
    op.attrs["strides"] = std::vector<std::int64_t>{s.sh, s.sw};
    op.attrs["pads"] = std::vector<std::int64_t>{s.pt, s.pb, s.pl, s.pr};
    op.attrs["dilations"] = std::vector<std::int64_t>{s.dh, s.dw};
    op.attrs["groups"] = s.groups;
}

// The planner's view of an fp32 stem: two images of 8 channels (one C0 block) 40 × 40, 16 output
// channels, 11 × 11 stride 4 pad 2 (9 × 9 out).
inline ConvProblem fp32StemConvProblem() {
    ConvProblem p;
    p.window.inH = p.window.inW = 40;
    p.window.outH = p.window.outW = 9;
    p.window.kernelH = p.window.kernelW = 11;
    p.window.strideH = p.window.strideW = 4;
    p.window.padTop = p.window.padLeft = 2;
    p.batch = 2;
    p.inChannels = 8;
    p.outChannels = 16;
    p.inputType = p.mmadType = p.outputType = DataType::Fp32;
    return p;
}

// A Conv2D run: its lowered kernels and where its x and w lay.
struct ConvForwardRun {
    std::vector<LoweredKernel> kernels;
    TensorInfo x, w;
};

// Conv2D of `s` (random x and w of `dtype`, fp32 y) on `chip`, y checked against the reference
// (`what` names the case).
inline ConvForwardRun runConvForward(const ChipConfig& chip, const ConvShape& s, std::optional<std::uint32_t> blockDim,
                                     DataType dtype, const std::string& what) {
    CubeOpHarness h(chip);
    ConvForwardRun run;
    run.x = h.tensor("x", {s.n, s.c, s.h, s.w}, dtype);
    run.w = h.tensor("w", {s.co, s.c / s.groups, s.kh, s.kw}, dtype);
    auto y = h.tensor("y", {s.n, s.co, s.outH(), s.outW()}, DataType::Fp32);
    const auto xv = h.fillRandom(run.x), wv = h.fillRandom(run.w);
    h.fill(y, 777.0f);
    auto op = makeOp("Conv2D", {run.x, run.w}, {y});
    setConvAttrs(op, s);
    op.blockDim = blockDim;
    run.kernels = h.run(op);
    const bool hf32 = dtype == DataType::Fp32;  // fp32 runs as hf32 (convTypes): its inputs rounded
    expectNear(h.read(y), referenceConv(s, xv, wv), hf32 ? 2e-2 : 1e-3, hf32 ? 5e-3 : 1e-4, what);
    return run;
}

// Conv2DBackpropInput of `s` (random dy and w of `dtype`, fp32 dx) on `chip`, dx checked against the
// reference (`what` names the case); `outputC0` != 0 marks dx stored NC1HWC0 with that C0
// (kConvOutputC0Attr). Returns the lowered kernels.
inline std::vector<LoweredKernel> runConvInputGrad(const ChipConfig& chip, const ConvShape& s,
                                                   std::optional<std::uint32_t> blockDim, DataType dtype,
                                                   std::int64_t outputC0, const std::string& what) {
    CubeOpHarness h(chip);
    auto dy = h.tensor("dy", {s.n, s.co, s.outH(), s.outW()}, dtype);
    auto w = h.tensor("w", {s.co, s.c, s.kh, s.kw}, dtype);
    auto dx = h.tensor("dx", {s.n, s.c, s.h, s.w}, DataType::Fp32);
    const auto dyv = h.fillRandom(dy), wv = h.fillRandom(w);
    h.fill(dx, 777.0f);
    auto op = makeOp("Conv2DBackpropInput", {dy, w}, {dx});
    setConvAttrs(op, s);
    op.attrs["input_size"] = std::vector<std::int64_t>{s.n, s.c, s.h, s.w};
    if (outputC0 != 0) op.attrs[kConvOutputC0Attr] = outputC0;
    op.blockDim = blockDim;
    auto kernels = h.run(op);
    const bool hf32 = dtype == DataType::Fp32;  // fp32 runs as hf32 (convTypes): its inputs rounded
    expectNear(h.read(dx), referenceConvInputGrad(s, dyv, wv), hf32 ? 2e-2 : 1e-3, hf32 ? 5e-3 : 1e-4, what);
    return kernels;
}

}  // namespace ascendsim::test
