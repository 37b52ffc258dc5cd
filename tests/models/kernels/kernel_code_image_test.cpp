// Which launches share a binary's code in the ICaches (codeImageOf): one binary per op type, task
// type and dtypes for every shape, and per format pair for TransData (binaryFixesFormats).
#include <gtest/gtest.h>

#include "models/kernels/kernel_registry.h"
#include "tests/models/kernels/cube_test_support.h"

namespace ascendsim::test {
namespace {

TensorInfo fp32(std::vector<std::int64_t> shape, TensorFormat format) {
    TensorInfo t;
    t.shape = std::move(shape);
    t.dtype = DataType::Fp32;
    t.format = format;
    return t;
}

std::uint64_t imageOf(const std::string& type, const TensorInfo& in, const TensorInfo& out) {
    return codeImageOf(makeOp(type, {in}, {out}), LoweredKernel{});
}

}  // namespace

TEST(KernelCodeImage, TransDataHasABinaryPerFormatPairAndC0) {
    const TensorInfo nchw = fp32({32, 256, 13, 13}, TensorFormat::NCHW);
    const TensorInfo c0Of8 = fp32({32, 32, 13, 13, 8}, TensorFormat::NC1HWC0);
    const TensorInfo c0Of16 = fp32({32, 16, 13, 13, 16}, TensorFormat::NC1HWC0);
    const TensorInfo weight = fp32({256, 256, 3, 3}, TensorFormat::NCHW);
    const TensorInfo fractalZ = fp32({288, 16, 16, 8}, TensorFormat::FractalZ);

    const std::uint64_t toFiveHd = imageOf("TransData", nchw, c0Of8);
    EXPECT_EQ(toFiveHd, imageOf("TransData", fp32({32, 384, 6, 6}, TensorFormat::NCHW),
                                fp32({32, 48, 6, 6, 8}, TensorFormat::NC1HWC0)));  // another shape
    EXPECT_NE(toFiveHd, imageOf("TransData", nchw, c0Of16));                      // the C0 = 16 sub-format
    EXPECT_NE(toFiveHd, imageOf("TransData", c0Of8, nchw));                       // the way back
    EXPECT_NE(toFiveHd, imageOf("TransData", weight, fractalZ));
}

TEST(KernelCodeImage, ElementwiseBinariesServeEveryFormatButNotAnotherDtype) {
    const TensorInfo nchw = fp32({32, 64, 27, 27}, TensorFormat::NCHW);
    const TensorInfo nd = fp32({32, 4096}, TensorFormat::ND);
    EXPECT_EQ(imageOf("Relu", nchw, nchw), imageOf("Relu", nd, nd));
    TensorInfo half = nd;
    half.dtype = DataType::Fp16;
    EXPECT_NE(imageOf("Relu", nd, nd), imageOf("Relu", half, half));
    EXPECT_FALSE(binaryFixesFormats("Relu"));
    EXPECT_TRUE(binaryFixesFormats("TransData"));
}

}  // namespace ascendsim::test
