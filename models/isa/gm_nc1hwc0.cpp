#include "models/isa/gm_nc1hwc0.h"

#include <stdexcept>
#include <string>

namespace ascendsim {

GmBursts nc1hwc0Bursts(const GmNc1hwc0& layout, std::uint64_t logicalAddr, std::uint32_t burstCount,
                       std::uint64_t burstBytes, std::uint64_t strideBytes) {
    if (!layout.present() || layout.positions == 0 || layout.elementBytes == 0 || layout.c0 == 0)
        throw std::invalid_argument("nc1hwc0Bursts: layout without channels, positions, element bytes or C0");
    if (logicalAddr < layout.tensorAddr) throw std::invalid_argument("nc1hwc0Bursts: address below the tensor");
    const std::uint64_t plane = layout.planeBytes(), imageBytes = plane * layout.channels;
    const std::uint64_t offset = logicalAddr - layout.tensorAddr;
    const std::uint64_t image = offset / imageBytes, firstChannel = offset % imageBytes / plane;
    const std::uint64_t firstPositionByte = offset % plane;
    std::uint64_t channelCount = burstCount, runBytes = burstBytes;
    if (burstCount <= 1 && burstBytes > plane) {  // whole planes back to back
        if (firstPositionByte != 0 || burstBytes % plane != 0)
            throw std::invalid_argument("nc1hwc0Bursts: a burst longer than a plane must hold whole planes");
        channelCount = burstBytes / plane;
        runBytes = plane;
    } else if (burstCount > 1 && strideBytes != plane) {
        throw std::invalid_argument("nc1hwc0Bursts: bursts " + std::to_string(strideBytes) +
                                    " B apart are not consecutive channels of " + std::to_string(plane) + " B planes");
    }
    if (channelCount == 0 || runBytes == 0 || runBytes % layout.elementBytes != 0 ||
        firstPositionByte % layout.elementBytes != 0 || firstChannel + channelCount > layout.channels ||
        firstPositionByte + runBytes > plane)
        throw std::invalid_argument("nc1hwc0Bursts: channels [" + std::to_string(firstChannel) + ", +" +
                                    std::to_string(channelCount) + ") x bytes [" + std::to_string(firstPositionByte) +
                                    ", +" + std::to_string(runBytes) + ") outside the image's " +
                                    std::to_string(layout.channels) + " x " + std::to_string(plane) + " B planes");
    const std::uint64_t c0 = layout.c0, cellBytes = c0 * layout.elementBytes;
    const std::uint64_t c1PerImage = (layout.channels + c0 - 1) / c0;
    const std::uint64_t blockPlaneBytes = layout.positions * cellBytes;
    const std::uint64_t firstBlock = firstChannel / c0, endBlock = (firstChannel + channelCount + c0 - 1) / c0;
    GmBursts bursts;
    bursts.address = layout.tensorAddr + (image * c1PerImage + firstBlock) * blockPlaneBytes +
                     firstPositionByte / layout.elementBytes * cellBytes;
    bursts.count = static_cast<std::uint32_t>(endBlock - firstBlock);
    bursts.burstBytes = runBytes / layout.elementBytes * cellBytes;
    bursts.strideBytes = blockPlaneBytes;
    return bursts;
}

}  // namespace ascendsim
