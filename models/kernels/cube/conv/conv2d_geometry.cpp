#include "models/kernels/cube/conv/conv2d_geometry.h"

#include <algorithm>
#include <limits>

namespace ascendsim {

namespace {
std::int64_t floorDiv(std::int64_t a, std::int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
std::int64_t ceilDivSigned(std::int64_t a, std::int64_t b) { return -floorDiv(-a, b); }
}  // namespace

std::uint64_t x5hdChannelBlock(DataType dtype) {
    constexpr std::uint64_t kC0Bytes = 32;
    return std::max<std::uint64_t>(1, kC0Bytes / bytesOf(dtype));
}

SlabRows slabRowsFor(const ConvWindow& w, std::uint64_t firstPos, std::uint64_t positions) {
    const auto firstRow = static_cast<std::int64_t>(firstPos / w.outW);
    const auto lastRow = static_cast<std::int64_t>((firstPos + positions - 1) / w.outW);
    const std::int64_t vMin = firstRow * w.strideH - static_cast<std::int64_t>(w.padTop);
    const std::int64_t vMax = lastRow * w.strideH - static_cast<std::int64_t>(w.padTop) +
                              static_cast<std::int64_t>(w.dilationH) * (w.kernelH - 1);
    const auto inH = static_cast<std::int64_t>(w.inH);
    std::int64_t first = ceilDivSigned(std::max<std::int64_t>(0, vMin), w.inputDilationH);
    std::int64_t end = std::min(inH, floorDiv(vMax, w.inputDilationH) + 1);
    first = std::min(first, inH - 1);  // an all-padding range still names one real row
    end = std::max(end, first + 1);
    return {static_cast<std::uint64_t>(first), static_cast<std::uint64_t>(end - first)};
}

std::uint64_t maxSlabRows(const ConvWindow& w, std::uint64_t positions) {
    const std::uint64_t outRows = std::min<std::uint64_t>(w.outH, (positions + w.outW - 2) / w.outW + 1);
    const std::uint64_t span = (outRows - 1) * w.strideH + std::uint64_t{w.dilationH} * (w.kernelH - 1) + 1;
    return std::min<std::uint64_t>(w.inH, span / w.inputDilationH + 2);
}

Img2ColLoad img2colFor(const ConvWindow& w, const SlabRows& rows, std::uint32_t channels, DataType dtype,
                       std::uint64_t slabAddr, MemSpace dst, std::uint64_t dstAddr, std::uint64_t firstPos,
                       std::uint32_t positions, std::uint32_t firstK, std::uint32_t k) {
    Img2ColLoad l;
    l.srcAddr = slabAddr;
    l.dstAddr = dstAddr;
    l.dst = dst;
    l.channelGroup = 1;  // channel-major NCHW slab
    l.inputDilationH = static_cast<std::uint16_t>(w.inputDilationH);
    l.inputDilationW = static_cast<std::uint16_t>(w.inputDilationW);
    l.rotateKernel = w.rotateKernel;
    l.dtype = dtype;
    l.channels = static_cast<std::uint16_t>(channels);
    l.inH = static_cast<std::uint16_t>(rows.count);
    l.inW = static_cast<std::uint16_t>(w.inW);
    l.kernelH = static_cast<std::uint16_t>(w.kernelH);
    l.kernelW = static_cast<std::uint16_t>(w.kernelW);
    l.strideH = static_cast<std::uint16_t>(w.strideH);
    l.strideW = static_cast<std::uint16_t>(w.strideW);
    // Slab-relative top padding: the slab starts at input row rows.first (virtual row first·d).
    l.padTop = static_cast<std::uint16_t>(w.padTop + rows.first * w.inputDilationH);
    l.padLeft = static_cast<std::uint16_t>(w.padLeft);
    l.dilationH = static_cast<std::uint16_t>(w.dilationH);
    l.dilationW = static_cast<std::uint16_t>(w.dilationW);
    l.outW = static_cast<std::uint16_t>(w.outW);
    l.outRowOffset = 0;
    l.firstOutPos = static_cast<std::uint32_t>(firstPos);
    l.m = positions;
    l.firstK = firstK;
    l.k = k;
    return l;
}

ConvAttrs parseConvAttrs(const OpInstance& op) {
    ConvAttrs a;
    auto positive = [&](std::int64_t v, const char* what) {
        if (v <= 0 || v > std::numeric_limits<std::uint16_t>::max())
            throwLoweringError(op, std::string(what) + " must be in 1..65535, got " + std::to_string(v));
        return static_cast<std::uint32_t>(v);
    };
    auto nonNegative = [&](std::int64_t v) {
        if (v < 0 || v > std::numeric_limits<std::uint16_t>::max()) throwLoweringError(op, "pads must be in 0..65535");
        return static_cast<std::uint32_t>(v);
    };
    const auto strides = op.intsAttr("strides", {1, 1});
    const auto dilations = op.intsAttr("dilations", {1, 1});
    const auto pads = op.intsAttr("pads", {0, 0, 0, 0});
    // CANN spells 4-D strides/dilations in NCHW order; take the last two.
    if (strides.size() < 2 || dilations.size() < 2 || pads.size() != 4)
        throwLoweringError(op, "strides/dilations need 2 values and pads 4");
    a.strideH = positive(strides[strides.size() - 2], "stride");
    a.strideW = positive(strides.back(), "stride");
    a.dilationH = positive(dilations[dilations.size() - 2], "dilation");
    a.dilationW = positive(dilations.back(), "dilation");
    a.padTop = nonNegative(pads[0]);
    a.padBottom = nonNegative(pads[1]);
    a.padLeft = nonNegative(pads[2]);
    a.padRight = nonNegative(pads[3]);
    a.groups = positive(op.intAttr("groups", 1), "groups");
    return a;
}

void requireNchw(const OpInstance& op, const TensorInfo& t, const char* role) {
    if (t.shape.size() != 4) throwLoweringError(op, std::string(role) + " must be 4-D NCHW");
    for (auto d : t.shape)
        if (d <= 0 || d > std::numeric_limits<std::uint16_t>::max())
            throwLoweringError(op, std::string(role) + " has a dimension outside 1..65535");
    if (t.format != TensorFormat::NCHW && t.format != TensorFormat::ND)
        throwLoweringError(op, std::string(role) + " format " + std::string(tensorFormatName(t.format)) +
                                   " is not modelled (NCHW only)");
}

std::int64_t convOutputExtent(std::int64_t in, std::uint32_t padBefore, std::uint32_t padAfter,
                              std::uint32_t dilation, std::uint32_t kernel, std::uint32_t stride) {
    const std::int64_t span = in + padBefore + padAfter - std::int64_t{dilation} * (kernel - 1) - 1;
    return span < 0 ? 0 : span / stride + 1;
}

void convTypes(const OpInstance& op, DataType input, DataType& mmadType, DataType& accType) {
    switch (input) {
        case DataType::Fp16: case DataType::Bf16: mmadType = input; accType = DataType::Fp32; return;
        case DataType::Fp32: case DataType::Hf32: mmadType = DataType::Hf32; accType = DataType::Fp32; return;
        case DataType::Int8: mmadType = DataType::Int8; accType = DataType::Int32; return;
        default: throwLoweringError(op, "unsupported dtype " + std::string(dataTypeName(input)));
    }
}

bool convGradientStoresWithoutUnitFlag(const ChipConfig& chip) { return chip.organisation == CoreOrganisation::Split; }

bool convStoresSplitC0Channels(const ChipConfig& chip, DataType output) {
    return chip.organisation == CoreOrganisation::Split && output == DataType::Fp32;
}

std::uint64_t l0HalfStepDepth(const ChipConfig& chip, std::uint64_t rows, std::uint64_t elementBytes,
                              std::uint64_t granule) {
    const std::uint64_t halfBytes = std::min(chip.bufferCapacity(MemSpace::L0A), chip.bufferCapacity(MemSpace::L0B)) / 2;
    const std::uint64_t g = std::max<std::uint64_t>(1, granule);
    return halfBytes / std::max<std::uint64_t>(1, rows) / std::max<std::uint64_t>(1, elementBytes) / g * g;
}

}  // namespace ascendsim
