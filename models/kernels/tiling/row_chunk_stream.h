#pragma once

// A row longer than UB streamed through double-buffered chunks (ArgMaxWithValue and the long-row
// reductions, CANN's "R-split"): the chunk size UB allows, the two stage halves and the fp32 copy
// of a narrower dtype, and which row and chunk a tile is, with the load that brings it into UB.
#include <algorithm>
#include <cstdint>

#include "models/kernels/tiling/vector_tiling_stream.h"

namespace ascendsim {

struct RowChunkStream {
    DataType dtype = DataType::Fp32;
    std::uint64_t length = 0, chunk = 0, chunksPerRow = 0;  // elements per row and per chunk
    std::uint64_t xGm = 0;
    std::uint64_t stage = 0, stageHalf = 0, f32 = 0;  // UB: two stage halves, the fp32 chunk

    // UB bytes one chunk element needs: two stage halves, plus the fp32 copy when x is narrower.
    std::uint64_t ubBytesPerElement() const { return 2 * bytesOf(dtype) + (dtype == DataType::Fp32 ? 0 : 4); }

    // The largest chunk of `granule`-element steps that fits `freeUbBytes` (no more than the row
    // needs); false when not even one step fits.
    bool sizeChunks(std::uint64_t freeUbBytes, std::uint64_t granule) {
        const std::uint64_t fit = freeUbBytes / ubBytesPerElement() / granule * granule;
        if (fit == 0) return false;
        chunk = std::min(fit, alignUp(length, granule));
        chunksPerRow = ceilDiv(length, chunk);
        return true;
    }

    void allocateStage(UbAllocator& ub) {
        stageHalf = alignUp(chunk * bytesOf(dtype), kUbBlockBytes);
        stage = ub.allocate(2 * stageHalf, "x chunks");
        if (dtype != DataType::Fp32) f32 = ub.allocate(chunk * 4, "fp32 chunk");
    }

    struct Chunk {
        std::uint64_t row = 0, index = 0;     // the row, and the chunk's place in it
        std::uint64_t first = 0, elements = 0;
        std::uint64_t ub = 0;                 // where the chunk landed (this tile's stage half)
    };

    // Tile `tile` of the rows from `firstRow` on: loads its chunk into stage half `half`.
    Chunk load(std::uint64_t firstRow, std::uint64_t tile, std::uint32_t half, TileCode& code) const {
        Chunk c;
        c.row = firstRow + tile / chunksPerRow;
        c.index = tile % chunksPerRow;
        c.first = c.index * chunk;
        c.elements = std::min(chunk, length - c.first);
        c.ub = stage + half * stageHalf;
        const std::uint64_t eb = bytesOf(dtype);
        code.load.push_back(moveRowsToUb(xGm + (c.row * length + c.first) * eb, c.ub, 1, c.elements * eb, c.elements * eb));
        return c;
    }
};

}  // namespace ascendsim
