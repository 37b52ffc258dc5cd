#pragma once
// Geometry and UB layout of the MaxPoolGrad kernel (max_pool_grad.cpp).
//
// Work unit = (group of 8 planes, band of dx rows [h0, h1)). A band computes its dx rows
// completely: it loads every window that touches them (y/dy rows [ohLo, ohLo+nY)) and the x rows
// those windows read, and discards contributions that fall outside the band (its neighbour
// computes them too), so no two units write the same dx element and no atomics are needed.
// In UB the 8 planes are interleaved position-major ("HWC0" with C0 = 8 fp32 = one 32 B block), so
// the window tap (i, j) of consecutive output columns is a block-strided operand (stride sw): the
// real TBE kernels' trick on NC1HWC0 data.
#include <cstdint>
#include <vector>

#include "models/isa/data_type.h"

namespace ascendsim {

inline constexpr std::uint64_t kPoolGradPlanesPerGroup = 8;  // fp32 elements in one 32 B block

struct PoolGradBand {
    std::uint64_t h0 = 0, h1 = 0;      // dx rows of the band
    std::uint64_t ohLo = 0, nY = 0;    // windows rows [ohLo, ohLo+nY) touching it
    std::int64_t hOrigin = 0;          // image row of padded-buffer row 0 (may be negative)
    std::uint64_t delta = 0;           // buffer row of window ohLo's tap row 0
    std::uint64_t rowsX = 0;           // buffer rows used
};

struct PoolGradLayout {
    DataType dtype = DataType::Fp16;
    std::uint64_t planes = 0, h = 0, w = 0, outH = 0, outW = 0;
    std::uint64_t kh = 1, kw = 1, sh = 1, sw = 1, padTop = 0, padLeft = 0, paddedW = 0;
    std::uint64_t x = 0, y = 0, dy = 0, dx = 0;
    std::uint64_t bandRows = 0, bands = 0, groups = 0;
    std::uint64_t maxRowsX = 0, maxRowsY = 0;
    // Row pitches (elements) of the NCHW staging buffers: W / Wo padded to 32 B in dtype.
    std::uint64_t xPitch = 0, yPitch = 0;
    // UB addresses. Staging halves are `*Stride` apart.
    std::uint64_t xStage = 0, xStageStride = 0, yStage = 0, dyStage = 0, yStageStride = 0;
    std::uint64_t outStage = 0, outStageStride = 0;
    std::uint64_t xF32 = 0, yF32 = 0, dyF32 = 0, outF32 = 0;
    std::uint64_t xPad = 0, dxPad = 0, yHwc = 0, dyHwc = 0;
    std::uint64_t xTable = 0, yTable = 0, outTable = 0;
    std::uint64_t notMax = 0, nextY = 0, zeros = 0, infinities = 0;
    std::uint64_t xTableEntries = 0, yTableEntries = 0, outTableEntries = 0;

    std::uint64_t units() const { return groups * bands; }
    PoolGradBand band(std::uint64_t index) const;
};

}  // namespace ascendsim
