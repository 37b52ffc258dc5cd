#include "models/kernels/cube/matmul/matmul_fractal_loads.h"

#include <algorithm>

namespace ascendsim {

namespace {
// A fractal's K extent in elements: one 32 B row (fp32 8, fp16 / bf16 16, int8 32; hardware.md §1.1
// DtypeMKN) — its other edge is kMatmulFractalRows; a fractal is 16 such rows, 512 B, an L0 unit.
constexpr std::uint64_t kFractalMoveRowBytes = 32;
constexpr std::uint64_t kFractalMoveBytes = kFractalMoveRowBytes * kMatmulFractalRows;

// Moves `rows` rows of `rowBytes` from `srcAddr` (rows `srcStride` bytes apart) to the contiguous
// block at `dstAddr` as one move per 512 B of the block — as many moves as the block has fractals,
// each landing on a 512 B L0 unit with the same bytes in the same place as the one block move.
// The model's L0 block is row-major, so a 512 B piece is one move when the rows are contiguous, a
// row holds whole pieces or a piece whole rows; otherwise the block moves at once and false is
// returned (its other pieces' issue is the caller's to charge).
bool moveInFractalPieces(MemSpace dst, std::uint64_t rows, std::uint64_t rowBytes, std::uint64_t srcAddr,
                         std::uint64_t srcStride, std::uint64_t dstAddr, ProgramBuilder& b) {
    const std::uint64_t total = rows * rowBytes;
    if (srcStride == rowBytes || rows == 1) {
        for (std::uint64_t at = 0; at < total; at += kFractalMoveBytes)
            b.copy(MemSpace::L1, srcAddr + at, dst, dstAddr + at,
                   static_cast<std::uint32_t>(std::min(kFractalMoveBytes, total - at)));
        return true;
    }
    if (rowBytes % kFractalMoveBytes == 0) {
        for (std::uint64_t r = 0; r < rows; ++r)
            for (std::uint64_t at = 0; at < rowBytes; at += kFractalMoveBytes)
                b.copy(MemSpace::L1, srcAddr + r * srcStride + at, dst, dstAddr + r * rowBytes + at,
                       static_cast<std::uint32_t>(kFractalMoveBytes));
        return true;
    }
    if (kFractalMoveBytes % rowBytes == 0) {
        const std::uint64_t group = kFractalMoveBytes / rowBytes;
        for (std::uint64_t r = 0; r < rows; r += group)
            b.copy2d(MemSpace::L1, srcAddr + r * srcStride, dst, dstAddr + r * rowBytes,
                     static_cast<std::uint32_t>(std::min(group, rows - r)), static_cast<std::uint32_t>(rowBytes),
                     srcStride, rowBytes);
        return true;
    }
    b.copy2d(MemSpace::L1, srcAddr, dst, dstAddr, static_cast<std::uint32_t>(rows),
             static_cast<std::uint32_t>(rowBytes), srcStride, rowBytes);
    return false;
}

// The block's fractal count: its 512 B pieces.
std::uint64_t fractalPieces(std::uint64_t bytes) { return (bytes + kFractalMoveBytes - 1) / kFractalMoveBytes; }

void loadBlockByFractals(MemSpace dst, std::uint64_t rows, std::uint64_t rowBytes, std::uint64_t srcAddr,
                         std::uint64_t srcStride, std::uint64_t dstAddr, std::uint32_t issueCycles, ProgramBuilder& b) {
    if (moveInFractalPieces(dst, rows, rowBytes, srcAddr, srcStride, dstAddr, b)) return;
    const std::uint64_t pieces = fractalPieces(rows * rowBytes);
    if (pieces > 1) b.scalar(static_cast<std::uint32_t>((pieces - 1) * issueCycles));
}
}  // namespace

namespace {
// Which of a GEMM's edges are not whole fractals: M and N in 16 rows, K in one fractal row of
// elements (8 fp32, 16 of a 2-byte type) — the unaligned pattern's per-axis align flags.
struct RaggedEdges {
    bool m = false, n = false, k = false;
};
RaggedEdges raggedEdges(const MatmulProblem& problem) {
    const std::uint64_t kRow = problem.inputType == DataType::Fp32 ? 8 : 16;
    return {problem.m % kMatmulFractalRows != 0, problem.n % kMatmulFractalRows != 0, problem.k % kRow != 0};
}
}  // namespace

bool runsCannUnalignedPattern(const MatmulProblem& problem) {
    const RaggedEdges ragged = raggedEdges(problem);
    return ragged.m || ragged.n || ragged.k;
}

FractalMovedOperands operandsMovedByFractals(const MatmulProblem& problem) {
    const RaggedEdges ragged = raggedEdges(problem);
    if (!(ragged.m || ragged.n || ragged.k)) return {};
    const bool fp32 = problem.inputType == DataType::Fp32;
    FractalMovedOperands moved;
    moved.a = ragged.k || ragged.m || (fp32 && !problem.transposeA);
    moved.b = ragged.k || ragged.n || (fp32 && problem.transposeB);
    return moved;
}

void loadStepAByFractals(const MatmulProblem& problem, std::uint64_t m, std::uint64_t kLength, std::uint64_t kOffset,
                         std::uint64_t chunkLength, std::uint64_t l1Addr, std::uint64_t l0aAddr,
                         std::uint32_t issueCycles, ProgramBuilder& b) {
    const std::uint64_t eb = bytesOf(problem.inputType);
    if (!problem.transposeA)  // L1 [m × chunk], L0A [m × kLength]
        loadBlockByFractals(MemSpace::L0A, m, kLength * eb, l1Addr + kOffset * eb, chunkLength * eb, l0aAddr,
                            issueCycles, b);
    else  // L1 [chunk × m], L0A [kLength × m]: contiguous
        loadBlockByFractals(MemSpace::L0A, 1, kLength * m * eb, l1Addr + kOffset * m * eb, kLength * m * eb, l0aAddr,
                            issueCycles, b);
}

void loadStepBByFractals(const MatmulProblem& problem, std::uint64_t n, std::uint64_t kLength, std::uint64_t kOffset,
                         std::uint64_t chunkLength, std::uint64_t l1Addr, std::uint64_t l0bAddr,
                         std::uint32_t issueCycles, ProgramBuilder& b) {
    const std::uint64_t eb = bytesOf(problem.inputType);
    if (!problem.transposeB)  // L1 [chunk × n], L0B [kLength × n]: contiguous
        loadBlockByFractals(MemSpace::L0B, 1, kLength * n * eb, l1Addr + kOffset * n * eb, kLength * n * eb, l0bAddr,
                            issueCycles, b);
    else  // L1 [n × chunk], L0B [n × kLength]
        loadBlockByFractals(MemSpace::L0B, n, kLength * eb, l1Addr + kOffset * eb, chunkLength * eb, l0bAddr,
                            issueCycles, b);
}

std::uint64_t wholeL0RowsStepDepth(std::uint64_t baseK, DataType inputType) {
    const std::uint64_t rowElements = kFractalMoveBytes / bytesOf(inputType);
    return baseK >= rowElements ? baseK / rowElements * rowElements : baseK;
}

}  // namespace ascendsim
