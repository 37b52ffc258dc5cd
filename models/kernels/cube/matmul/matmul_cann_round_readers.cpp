#include "models/kernels/cube/matmul/matmul_cann_round_readers.h"

#include <algorithm>
#include <map>
#include <numeric>

namespace ascendsim {

namespace {
constexpr std::uint64_t kBudgetBytesAt192MiB = 100ull << 20;  // CANN: 100 MB "so L2 data is not replaced", × L2 / 192 MiB
constexpr std::uint64_t kReferenceL2Bytes = 192ull << 20;
constexpr std::uint64_t kDefaultMBlocks = 4;  // DoL2CacheTiling's default mTileBlock; nTileBlock = cores / 4

struct L2Side {  // one side of CalcTile's split: the block edge, the GEMM's extent, its operand's bytes
    std::uint64_t base = 0, extent = 0, elementBytes = 0;
};

std::uint64_t gemmBytes(std::uint64_t m, std::uint64_t k, std::uint64_t n, std::uint64_t aBytes, std::uint64_t bBytes,
                        std::uint64_t cBytes) {
    return m * k * aBytes + k * n * bBytes + m * n * cBytes;
}

// CalcTile: the L2 split (out, inner extents) of the largest use of the cores that fits the budget
// without a tail too small to keep the cores busy, preferring splits whose tails spread reads over
// fewer cores. Returns false when no split fits (the default L2 tile then applies).
bool splitForL2(const L2Side& out, const L2Side& inner, std::uint64_t k, std::uint64_t cBytes, std::uint64_t cores,
                bool innerKMajor, std::uint64_t budget, std::uint64_t& outSplit, std::uint64_t& innerSplit) {
    const std::uint64_t maxShare = cannFreeSharers(cores, false);
    const std::uint64_t innerShare = cannFreeSharers(cores, innerKMajor);
    bool found = false;
    std::uint64_t outConflict = 0, innerConflict = 0;
    for (std::uint64_t outUse = cores; outUse >= std::max<std::uint64_t>(cores / maxShare, 1); --outUse) {
        for (std::uint64_t innerUse = cores; innerUse >= std::max<std::uint64_t>(cores / innerShare, 1); --innerUse) {
            const std::uint64_t outTiles = std::max<std::uint64_t>(out.extent / (out.base * outUse), 1);
            const std::uint64_t innerTiles = std::max<std::uint64_t>(inner.extent / (inner.base * innerUse), 1);
            const std::uint64_t outL2 = roundUp(ceilDiv(out.extent, outTiles), out.base);
            const std::uint64_t innerL2 = roundUp(ceilDiv(inner.extent, innerTiles), inner.base);
            if (gemmBytes(outL2, k, innerL2, out.elementBytes, inner.elementBytes, cBytes) > budget) continue;
            const std::uint64_t outTail = ceilDiv((out.extent + outL2 - 1) % outL2 + 1, out.base);
            const std::uint64_t innerTail = ceilDiv((inner.extent + innerL2 - 1) % innerL2 + 1, inner.base);
            if (outTail * maxShare < cores || innerTail * innerShare < cores) continue;
            const std::uint64_t outC = ceilDiv(cores, outTail), innerC = ceilDiv(cores, innerTail);
            if (found && !(outConflict >= outC && innerConflict >= innerC)) continue;
            found = true;
            outSplit = outL2;
            innerSplit = innerL2;
            outConflict = outC;
            innerConflict = innerC;
        }
    }
    return found;
}

// Lines (or rows) of the operand a block's strip reads: a K-major strip's byte range of one K row
// on the L2 line grid; a K-contiguous strip is its own rows, one key per block.
std::vector<std::uint64_t> stripLines(bool kMajor, std::uint64_t block, std::uint64_t base, std::uint64_t extent,
                                      std::uint64_t elementBytes, std::uint64_t lineBytes) {
    if (!kMajor) return {block};
    const std::uint64_t first = block * base * elementBytes;
    const std::uint64_t last = std::min(extent, (block + 1) * base) * elementBytes - 1;
    std::vector<std::uint64_t> lines;
    for (std::uint64_t line = first / lineBytes; line <= last / lineBytes; ++line) lines.push_back(line);
    return lines;
}
}  // namespace

std::uint64_t cannFreeSharers(std::uint64_t cores, bool kMajor) {
    if (cores == 20) return kMajor ? 4 : 5;
    return std::min<std::uint64_t>(cores, kMajor ? 3 : 6);
}

CannL2Tile cannL2Tile(const ChipConfig& chip, const MatmulProblem& p, std::uint32_t baseM, std::uint32_t baseN) {
    const std::uint64_t cores = std::max<std::uint32_t>(chip.aiCoreCount, 1);
    const std::uint64_t mBlocks = ceilDiv(p.m, baseM), nBlocks = ceilDiv(p.n, baseN);
    const std::uint64_t eb = bytesOf(p.inputType), cb = bytesOf(p.outputType);
    const std::uint64_t budget = static_cast<std::uint64_t>(static_cast<double>(kBudgetBytesAt192MiB) *
                                                            static_cast<double>(chip.l2.sizeBytes) /
                                                            static_cast<double>(kReferenceL2Bytes));
    if (gemmBytes(p.m, p.k, p.n, eb, eb, cb) > budget) {
        // The longer block edge is the outer side; the inner operand is K-major when it is A
        // transposed (inner m) or B not transposed (inner n).
        const bool nOuter = baseN >= baseM;
        const L2Side mSide{baseM, p.m, eb}, nSide{baseN, p.n, eb};
        std::uint64_t outSplit = 0, innerSplit = 0;
        if (splitForL2(nOuter ? nSide : mSide, nOuter ? mSide : nSide, p.k, cb, cores,
                       nOuter ? p.transposeA : !p.transposeB, budget, outSplit, innerSplit)) {
            const std::uint64_t mSplit = nOuter ? innerSplit : outSplit, nSplit = nOuter ? outSplit : innerSplit;
            return {ceilDiv(mSplit, baseM), ceilDiv(nSplit, baseN)};
        }
    }
    return {std::min(kDefaultMBlocks, mBlocks), std::min(std::max<std::uint64_t>(cores / kDefaultMBlocks, 1), nBlocks)};
}

CannRoundReaders cannRoundReaders(const ChipConfig& chip, const MatmulProblem& p, std::uint32_t baseM,
                                  std::uint32_t baseN) {
    const std::uint64_t cores = std::max<std::uint32_t>(chip.aiCoreCount, 1);
    const std::uint64_t mBlocks = ceilDiv(p.m, baseM), nBlocks = ceilDiv(p.n, baseN);
    const std::uint64_t eb = bytesOf(p.inputType), lineBytes = std::max<std::uint32_t>(chip.l2.lineBytes, 1);
    const CannL2Tile tile = cannL2Tile(chip, p, baseM, baseN);
    CannRoundReaders readers;
    readers.cores = cores;
    readers.a.assign(mBlocks * nBlocks, 1.0f);
    readers.b.assign(mBlocks * nBlocks, 1.0f);
    const bool aKMajor = p.transposeA, bKMajor = !p.transposeB;
    for (std::uint64_t m0 = 0; m0 < mBlocks; m0 += tile.mBlocks) {
        for (std::uint64_t n0 = 0; n0 < nBlocks; n0 += tile.nBlocks) {
            const std::uint64_t mCnt = std::min(tile.mBlocks, mBlocks - m0), nCnt = std::min(tile.nBlocks, nBlocks - n0);
            const std::uint64_t lcm = std::lcm(mCnt, nCnt);
            for (std::uint64_t first = 0; first < mCnt * nCnt; first += cores) {
                std::vector<std::pair<std::uint64_t, std::uint64_t>> round;
                for (std::uint64_t i = first; i < std::min(first + cores, mCnt * nCnt); ++i)
                    round.emplace_back(m0 + i % mCnt, n0 + (i + i / lcm) % nCnt);
                std::map<std::uint64_t, std::uint32_t> aCount, bCount;
                for (const auto& [m, n] : round) {
                    for (auto line : stripLines(aKMajor, m, baseM, p.m, eb, lineBytes)) ++aCount[line];
                    for (auto line : stripLines(bKMajor, n, baseN, p.n, eb, lineBytes)) ++bCount[line];
                }
                for (const auto& [m, n] : round) {
                    std::uint32_t aMost = 1, bMost = 1;
                    for (auto line : stripLines(aKMajor, m, baseM, p.m, eb, lineBytes)) aMost = std::max(aMost, aCount[line]);
                    for (auto line : stripLines(bKMajor, n, baseN, p.n, eb, lineBytes)) bMost = std::max(bMost, bCount[line]);
                    readers.a[m * nBlocks + n] = static_cast<float>(aMost);
                    readers.b[m * nBlocks + n] = static_cast<float>(bMost);
                }
            }
        }
    }
    return readers;
}

}  // namespace ascendsim
