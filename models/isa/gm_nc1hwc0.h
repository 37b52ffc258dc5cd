#pragma once
// Where a move's GM bytes lie when its GM tensor is stored NC1HWC0 (5HD) (timing only).
//
// instruction.h's functional convention addresses a convolution's activation as its logical NCHW
// tensor: a store of a tile of `co` channels × `positions` output positions is `co` bursts, one a
// channel plane apart. The chip's convolutions write y (and the input gradient dx) as NC1HWC0
// (their recorded output format): [N][C1][H·W][C0], C0 the channels of one 32 B block (16 fp16, 8
// fp32; hardware.md §2.3), C padded to C1·C0. FixPipe stores a tile's positions of one C1 block
// as one contiguous run of positions × 32 B, whole 32 B blocks, so a following TransData
// (NC1HWC0 → NCHW) reads the lines the conv wrote whole (docs/fidelity.md §133f). The move keeps
// its logical NCHW bursts, which functional models use; timing models charge the runs.
#include <cstdint>

#include "models/isa/gm_layout.h"

namespace ascendsim {

struct GmNc1hwc0 {
    std::uint64_t tensorAddr = 0;    // GM byte address of element (n 0, c 0, position 0)
    std::uint64_t positions = 0;     // H·W of one channel plane
    std::uint32_t channels = 0;      // logical C of one image; 0 = the tensor is NCHW in GM
    std::uint32_t elementBytes = 0;  // GM element bytes
    std::uint32_t c0 = 0;            // channels of one cell (C0), as the tensor records it

    bool present() const { return channels != 0; }
    std::uint64_t planeBytes() const { return positions * elementBytes; }
};

// The bursts in GM of a move's GM side, `burstCount` bursts of `burstBytes` starting
// `strideBytes` apart at logical NCHW byte address `logicalAddr`, over a tensor stored as
// `layout` says: one run of the bursts' positions × C0 cells per C1 block their channels cover,
// the runs a C1 block's plane apart. The bursts must be one image's consecutive channels' same
// positions (a stride of one plane), or one burst of whole planes back to back. Throws
// std::invalid_argument otherwise or when they leave the image.
GmBursts nc1hwc0Bursts(const GmNc1hwc0& layout, std::uint64_t logicalAddr, std::uint32_t burstCount,
                       std::uint64_t burstBytes, std::uint64_t strideBytes);

}  // namespace ascendsim
