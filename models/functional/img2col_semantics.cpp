#include "models/functional/img2col_semantics.h"

#include <cstring>
#include <stdexcept>
#include <string>

namespace ascendsim {

namespace {
constexpr const char* kWhat = "Img2ColLoad";

// Maps an output coordinate and kernel tap to a slab coordinate; -1 for padding or for the
// zeros a dilated (zero-stuffed) input holds between real elements.
std::int64_t slabIndex(std::int64_t out, std::int64_t tap, std::int64_t stride, std::int64_t pad,
                       std::int64_t dilation, std::int64_t inputDilation, std::int64_t extent) {
    const std::int64_t virtualIndex = out * stride - pad + tap * dilation;
    if (virtualIndex < 0 || virtualIndex % inputDilation != 0) return -1;
    const std::int64_t index = virtualIndex / inputDilation;
    return index < extent ? index : -1;
}
}  // namespace

void executeImg2Col(const Img2ColLoad& load, CoreMemory& memory) {
    if (load.dst != MemSpace::L0A && load.dst != MemSpace::L0B)
        throw std::runtime_error(std::string(kWhat) + ": destination " +
                                 std::string(memSpaceName(load.dst)) + " is not L0A/L0B");
    if (load.outW == 0 || load.channels == 0 || load.strideH == 0 || load.strideW == 0 ||
        load.inputDilationH == 0 || load.inputDilationW == 0)
        throw std::runtime_error(std::string(kWhat) + ": zero outW/channels/stride/dilation");
    memory.checkAligned(MemSpace::L1, load.srcAddr, kWhat);
    memory.checkAligned(load.dst, load.dstAddr, kWhat);

    const std::size_t elementBytes = bytesOf(load.dtype);
    const std::uint64_t c0 = load.channelGroup ? load.channelGroup : load.channels;
    const std::uint64_t groups = (load.channels + c0 - 1) / c0;
    const std::uint64_t slabBytes = groups * load.inH * load.inW * c0 * elementBytes;
    const std::uint8_t* slab = memory.span(MemSpace::L1, load.srcAddr, slabBytes, kWhat);
    std::uint8_t* out = memory.span(load.dst, load.dstAddr, load.totalBytes(), kWhat);

    const std::uint64_t tapsPerGroup = std::uint64_t{load.kernelH} * load.kernelW * c0;
    for (std::uint32_t row = 0; row < load.m; ++row) {
        const std::uint64_t position = std::uint64_t{load.firstOutPos} + row;
        const std::int64_t oh = static_cast<std::int64_t>(position / load.outW) - load.outRowOffset;
        const std::int64_t ow = static_cast<std::int64_t>(position % load.outW);
        std::uint8_t* outRow = out + std::uint64_t{row} * load.k * elementBytes;
        for (std::uint32_t col = 0; col < load.k; ++col) {
            const std::uint64_t kIndex = std::uint64_t{load.firstK} + col;
            const std::uint64_t group = kIndex / tapsPerGroup;
            const std::uint64_t inGroup = kIndex % tapsPerGroup;
            std::int64_t kh = static_cast<std::int64_t>(inGroup / (std::uint64_t{load.kernelW} * c0));
            std::int64_t kw = static_cast<std::int64_t>((inGroup / c0) % load.kernelW);
            const std::uint64_t channelInGroup = inGroup % c0;
            if (load.rotateKernel) {
                kh = load.kernelH - 1 - kh;
                kw = load.kernelW - 1 - kw;
            }
            const std::int64_t h = slabIndex(oh, kh, load.strideH, load.padTop, load.dilationH,
                                             load.inputDilationH, load.inH);
            const std::int64_t w = slabIndex(ow, kw, load.strideW, load.padLeft, load.dilationW,
                                             load.inputDilationW, load.inW);
            std::uint8_t* target = outRow + col * elementBytes;
            if (h < 0 || w < 0 || group >= groups || group * c0 + channelInGroup >= load.channels) {
                std::memset(target, 0, elementBytes);
                continue;
            }
            const std::uint64_t element =
                ((group * load.inH + static_cast<std::uint64_t>(h)) * load.inW +
                 static_cast<std::uint64_t>(w)) * c0 + channelInGroup;
            std::memcpy(target, slab + element * elementBytes, elementBytes);
        }
    }
}

}  // namespace ascendsim
