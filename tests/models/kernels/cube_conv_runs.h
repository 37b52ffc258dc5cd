#pragma once
// Conv ops lowered and run on the FunctionalMachine for the cube conv tests, checked against the
// naive references of cube_conv_reference.h.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/kernels/cube/conv/conv2d_geometry.h"
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
