#pragma once
// A Conv2DBackpropFilter op of ConvShape `s` for the cube tests: x and dy of `type`, dw fp32.
#include "tests/models/kernels/cube_conv_reference.h"
#include "tests/models/kernels/cube_test_support.h"

namespace ascendsim::test {

inline OpInstance filterGradOp(CubeOpHarness& h, const ConvShape& s, TensorInfo& x, TensorInfo& dy, TensorInfo& dw,
                               DataType type = DataType::Fp16) {
    x = h.tensor("x", {s.n, s.c, s.h, s.w}, type);
    dy = h.tensor("dy", {s.n, s.co, s.outH(), s.outW()}, type);
    dw = h.tensor("dw", {s.co, s.c, s.kh, s.kw}, DataType::Fp32);
    auto op = makeOp("Conv2DBackpropFilter", {x, dy}, {dw});
    op.attrs["strides"] = std::vector<std::int64_t>{s.sh, s.sw};
    op.attrs["pads"] = std::vector<std::int64_t>{s.pt, s.pb, s.pl, s.pr};
    op.attrs["filter_size"] = std::vector<std::int64_t>{s.co, s.c, s.kh, s.kw};
    return op;
}

}  // namespace ascendsim::test
