#include "models/kernels/cube/conv/conv2d_backprop_filter_block_split.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <vector>

namespace ascendsim {

namespace {
using i64 = std::int64_t;

// The cache tiling's constants (ops-nn cube/constants/constants_define.h, the 220x "1971" values):
// fractals of 16 × 16, L0A / L0C sizes in fractals, MTE2 bandwidth (B/cycle) and latency, MTE1
// costs, the mad's fixed cost, the L0C → fixpipe → GM bandwidths.
constexpr i64 kBlock = 16, kFractal = 256, kFp16Bytes = 2, kFp32Bytes = 4;
constexpr i64 kL0aNzSize = 64, kL0cNzSize = 128;
constexpr i64 kHbmBandwidth = 96, kMte2Latency = 300, kMte1Load3dCost = 42, kMadCost = 20;
constexpr i64 kL0cBandwidth = 256, kFixpBandwidth = 128;
constexpr i64 kMaxLoad2dInsn = 60;
constexpr double kMinCoreShare = 0.8;  // CycleCalculator::Exec: at least 80 % of the cores

i64 divUp(i64 a, i64 b) { return (a + b - 1) / b; }
i64 alignUp(i64 a, i64 b) { return divUp(a, b) * b; }

// math_util.cc: the most divisors any factor of `shape` in [lo, hi] has.
i64 divisorCount(i64 shape, i64 lo, i64 hi) {
    i64 count = 0;
    for (i64 i = lo; i <= hi; ++i) {
        if (shape < i) break;
        if (shape % i == 0) ++count;
    }
    return count;
}
i64 factorLayerCount(i64 shape, i64 lo, i64 hi) {
    i64 best = 0;
    for (i64 f = hi; f >= lo && f != 0; --f)
        if (shape % f == 0) best = std::max(best, divisorCount(f, 1, f + 1));
    return best;
}
i64 mapShape(i64 shape) {
    i64 seed = 16;
    if (shape < seed) return shape;
    while (seed < 1024 && !(seed < shape && 2 * seed >= shape)) seed *= 2;
    return 2 * seed;
}
// GetNonFactorMap + AddCoreFactor: the dimension's candidate core factors, and its mapped extent.
i64 coreFactors(i64 extent, i64 cores, std::vector<i64>& factors) {
    i64 mapped = extent;
    if (extent > 1 && factorLayerCount(extent, 1, cores) <= 4) mapped = mapShape(extent);
    for (i64 f = 1; f <= std::min(mapped, cores); ++f)
        if (mapped % f == 0) factors.push_back(f);
    std::vector<i64> kept;
    for (i64 f : factors) {
        if (f > extent) break;
        kept.push_back(f);
    }
    for (i64 f = 1; f <= std::min(cores, extent); ++f)
        if (cores % f == 0) kept.push_back(f);
    std::sort(kept.begin(), kept.end());
    kept.erase(std::unique(kept.begin(), kept.end()), kept.end());
    factors = kept;
    return mapped;
}
bool factorNumSatisfied(i64 dim) {
    if (dim <= 8) return true;
    const i64 l0 = factorLayerCount(dim, 1, 64);
    const i64 l1 = dim > 128 ? factorLayerCount(dim, 65, 128) : 0;
    return !(l0 <= 2 || (dim > 128 && l0 + l1 <= 4));
}
i64 bestSingleCore(i64 original, i64 mapped, i64 cores) {
    if (cores == 1 && factorNumSatisfied(original)) return original;
    const i64 target = divUp(mapped, cores);
    i64 best = divUp(original, cores);
    while (best != target) {
        if (factorNumSatisfied(best)) return best;
        best += best < target ? 1 : -1;
    }
    return best;
}
i64 nearestFactor(i64 base, i64 factor, bool even) {
    if (factor >= base) return base;
    if (factor <= 0) return 0;
    if (even && ((base & 1) != 0 || factor == 1)) return 0;
    while (factor > 0 && (base % factor != 0 || (even && (factor & 1) != 0))) --factor;
    return factor;
}

struct Search {
    // The problem in the cache tiling's units: m in 16-channel fractals of dy, n in 16-channel
    // C1 of x times the kernel's taps, k in k0-position fractals.
    i64 batch, aC1, bC1, cin, inH, inW, outH, outW, kh, kw, strideH, strideW, kernelHDil, kernelWDil;
    i64 k0, eb, l1;
    bool hf32;
    // State of one candidate.
    i64 shapeBatch = 0, shapeM = 0, shapeN = 0, shapeK = 0;
    i64 m = 0, n = 0, k = 0, mAl1 = 1, kAl1 = 0, kBl1 = 0, nBl1 = 1, dbAl1 = 1, dbBl1 = 1;

    i64 rowsOf(i64 kL1) const {  // CubeUtil::CalcHo
        const i64 positions = kL1 * k0, ho = divUp(positions, outW);
        return positions % outW == 0 || outW % positions == 0 ? ho : ho + 1;
    }
    i64 inRowsOf(i64 rows) const { return std::min((rows - 1) * strideH + kernelHDil, inH); }
    i64 bl1Channels(i64 columns) const {  // CubeUtil::CalcBL1N
        const i64 taps = kh * kw, c1 = divUp(columns, taps);
        if (taps > columns) return c1 + (columns != 0 && taps % columns != 0 ? 1 : 0);
        if (columns % taps == 0) return c1;
        return c1 + ((2 * columns) % taps == 0 ? 1 : 2);
    }
    i64 al1Bytes() const { return mAl1 * m * kBlock * kAl1 * k0 * dbAl1 * eb; }
    i64 bl1Bytes() const { return inRowsOf(rowsOf(kBl1)) * inW * bl1Channels(nBl1 * n) * kBlock * dbBl1 * eb; }
    bool l1Fits() const { return al1Bytes() + bl1Bytes() <= l1; }
    i64 fitN(i64 most) {
        n = std::min(most, shapeN);
        while (n != 0 && (shapeN % n != 0 || !l1Fits())) --n;
        return n;
    }
    i64 fitM(i64 most) {
        m = std::min(most, shapeM);
        while (m != 0 && (shapeM % m != 0 || !l1Fits())) --m;
        return m;
    }
    // GetMN0: one side 8–16 fractals at most, the other what L0C leaves; more fractals, then squarer.
    bool chooseMN() {
        m = n = 1;
        const i64 n1 = fitN(16);
        if (n1 <= 0) return false;
        const i64 m1 = fitM(std::min(kL0cNzSize / n1, kL0aNzSize / 2));
        m = n = 1;
        const i64 m2 = fitM(16);
        if (m2 <= 0) return false;
        const i64 n2 = fitN(std::min(kL0cNzSize / m2, kL0aNzSize / 2));
        if (m1 <= 0 || n2 <= 0) return false;
        if (m1 * n1 != m2 * n2) {
            const bool first = m1 * n1 > m2 * n2;
            m = first ? m1 : m2;
            n = first ? n1 : n2;
        } else if (std::abs(m1 - n1) != std::abs(m2 - n2)) {
            const bool first = std::abs(m1 - n1) < std::abs(m2 - n2);
            m = first ? m1 : m2;
            n = first ? n1 : n2;
        } else {
            m = std::min(m1, m2);
            n = m1 * n1 / m;
        }
        return true;
    }
    // FastFindNotFullLoad's k_l0 and CalcKbl1 / CalcKal1's L1 depths.
    bool chooseK() {
        k = std::min({shapeK, kL0aNzSize / m, kL0aNzSize / n});
        kAl1 = kBl1 = k;
        while (shapeK % k != 0 || (k & 1) != 0 || !l1Fits()) {
            k = nearestFactor(shapeK, k - 1, true);
            if (k == 0) return false;
            kAl1 = kBl1 = k;
        }
        const i64 times = shapeK / k;
        i64 remain = l1 - al1Bytes();
        const i64 inRows = remain / (inW * bl1Channels(nBl1 * n) * kBlock * dbBl1 * eb);
        const i64 rows = (inRows - (kh - 1) - 1) / strideH + 1;
        i64 bTimes = std::max<i64>(std::min(divUp(rows * outW, k0) / k, times), 1);
        if (rows <= 0) bTimes = times;
        bTimes = nearestFactor(times, bTimes, false);
        kBl1 = bTimes * k;
        while (bl1Bytes() > remain && bTimes > 1) {
            bTimes = nearestFactor(times, bTimes - 1, false);
            kBl1 = bTimes * k;
        }
        remain = l1 - bl1Bytes();
        const i64 aDepth = std::min(remain / (mAl1 * m * kBlock * k0 * dbAl1 * eb), shapeK);
        kAl1 = nearestFactor(times, aDepth / k, false) * k;
        if (kAl1 <= 0) return false;
        if (kAl1 > kBl1 && kAl1 % kBl1 != 0)
            while (kAl1 > k && ((kAl1 % kBl1 != 0 && kBl1 % kAl1 != 0) || shapeK % kAl1 != 0 || !l1Fits())) kAl1 -= k;
        else if (kAl1 < kBl1 && kBl1 % kAl1 != 0)
            while (kBl1 > k && ((kAl1 % kBl1 != 0 && kBl1 % kAl1 != 0) || shapeK % kBl1 != 0 || !l1Fits())) kBl1 -= k;
        return true;
    }
    // GetCycleByModel for the pattern these shapes take (neither operand fully loaded: a block holds
    // more than one image).
    i64 cycles(i64 mDim, i64 kDim, i64 nDim) {
        const i64 mte1A = kMte1Load3dCost + k * m * kFractal * kFp16Bytes / 256;
        i64 rowSwitches = kBlock / inW;
        if (kBlock % outW == 0) rowSwitches = (kBlock - 1) / inW;
        const i64 l0bBand = strideW == 1 ? 512 / (rowSwitches + 4) : 512 / (rowSwitches + 2 + 2 * strideW);
        const i64 mte1B = kMte1Load3dCost + k * n * kFractal * kFp16Bytes / l0bBand;
        const i64 mte2A = kMte2Latency + mAl1 * m * kAl1 * kBlock * kBlock * kFp16Bytes / kHbmBandwidth;
        const i64 inRows = inRowsOf(rowsOf(kBl1)), c1 = divUp(nBl1 * n, kh * kw);
        const i64 burst = std::min((outW - 1) * strideW + kernelWDil, inW);
        i64 packages = 0;  // GetMilanPkgNumByCacheline
        {
            i64 p1 = burst & 1, p2 = (burst >> 1) & 1;
            const i64 p3 = std::min(p1, p2);
            p1 -= p3;
            p2 -= p3;
            packages = p1 + p2 + p3 + ((burst >> 2) & 1) + ((burst >> 3) & 1) + (burst >> 4);
        }
        const i64 mte2B = kMte2Latency + std::min(c1, inRows) * std::max(c1, inRows) * packages * kFractal * kFp16Bytes /
                                             kHbmBandwidth;
        const i64 mad = std::max(m * k * n * (hf32 ? 1 : 2) + kMadCost, mte1A + mte1B);
        const i64 l0cBytes = m * n * kFractal * kFp32Bytes;
        const i64 fixp = l0cBytes / kL0cBandwidth + l0cBytes / kFixpBandwidth;
        const i64 coreK = divUp(alignUp(outH * outW, kBlock) / k0, kDim);
        const i64 mTiles = divUp(divUp(aC1, mDim), mAl1 * m);
        const i64 cin1 = alignUp(cin, kBlock) / k0;
        const i64 nTiles = divUp(divUp(cin1, nDim) * kh * kw, nBl1 * n);
        const i64 aFactor = coreK / kAl1, bFactor = coreK / kBl1, a0 = kAl1 / k, b0 = kBl1 / k;
        const i64 l1Times = std::max(kAl1, kBl1) / std::min(kAl1, kBl1);
        const i64 inserts = divUp(std::min(kAl1, kBl1), k) * m;
        const i64 a1 = al1Bytes(), b1 = bl1Bytes();  // SetDoubleBuffer
        dbAl1 = 2 * a1 + b1 <= l1 ? 2 : 1;
        dbBl1 = a1 * dbAl1 + 2 * b1 <= l1 ? 2 : 1;
        const bool dbA = dbAl1 == 2, dbB = dbBl1 == 2;
        if (kAl1 == kBl1) {
            const i64 step = dbA && dbB && inserts < kMaxLoad2dInsn ? std::max(mte2A + mte2B, a0 * mad)
                                                                   : mte2A + mte2B + a0 * mad;
            return nTiles * mTiles * (shapeBatch * aFactor * step + fixp);
        }
        if (kAl1 > kBl1) {
            const i64 step = dbB && inserts < kMaxLoad2dInsn ? std::max(mte2B, b0 * mad) : mte2B + b0 * mad;
            const i64 aStep = dbA && inserts * l1Times < kMaxLoad2dInsn ? std::max(mte2A, l1Times * step)
                                                                         : mte2A + l1Times * step;
            return nTiles * mTiles * (shapeBatch * aFactor * aStep + fixp);
        }
        const i64 step = dbA && inserts < kMaxLoad2dInsn ? std::max(mte2A, a0 * mad) : mte2A + a0 * mad;
        const i64 bStep = dbB && inserts * l1Times < kMaxLoad2dInsn ? std::max(mte2B, l1Times * step)
                                                                     : mte2B + l1Times * step;
        return nTiles * mTiles * (shapeBatch * bFactor * bStep + fixp);
    }
};
}  // namespace

FilterGradBlockSplit cannFilterGradBlockSplit(const ConvWindow& window, std::uint64_t batch, std::uint64_t inChannels,
                                              std::uint64_t outChannels, std::uint64_t elementBytes, bool hf32,
                                              std::uint32_t cores, std::uint64_t l1Bytes) {
    Search s{};
    s.batch = static_cast<i64>(batch);
    s.aC1 = divUp(static_cast<i64>(outChannels), kBlock);
    s.bC1 = divUp(static_cast<i64>(inChannels), kBlock);
    s.cin = static_cast<i64>(inChannels);
    s.inH = static_cast<i64>(window.inH);
    s.inW = static_cast<i64>(window.inW);
    s.outH = static_cast<i64>(window.outH);
    s.outW = static_cast<i64>(window.outW);
    s.kh = window.kernelH;
    s.kw = window.kernelW;
    s.strideH = window.strideH;
    s.strideW = window.strideW;
    s.kernelHDil = (s.kh - 1) * window.dilationH + 1;
    s.kernelWDil = (s.kw - 1) * window.dilationW + 1;
    s.eb = static_cast<i64>(elementBytes);
    s.k0 = 32 / s.eb;
    s.l1 = static_cast<i64>(l1Bytes);
    s.hf32 = hf32;
    const i64 coreCount = cores;
    const i64 origK = alignUp(s.outH * s.outW, kBlock) / s.k0;
    std::vector<i64> batchFactors, mFactors, nFactors;
    coreFactors(s.batch, coreCount, batchFactors);
    const i64 mappedM = coreFactors(s.aC1, coreCount, mFactors);
    const i64 mappedN = coreFactors(s.bC1, coreCount, nFactors);
    const i64 minCores = static_cast<i64>(std::ceil(static_cast<double>(coreCount) * kMinCoreShare));

    FilterGradBlockSplit best;
    i64 bestCycles = std::numeric_limits<i64>::max();
    auto loop = [&](bool prune) {
        for (i64 b : batchFactors) {
            if (b > coreCount) break;
            for (i64 nd : nFactors) {
                if (b * nd > coreCount) break;
                for (i64 md : mFactors) {
                    if (b * nd * md > coreCount) break;
                    i64 kd = std::min(coreCount / (b * md * nd), origK);  // GetKFactor
                    while (kd > 0 && (divUp(origK, kd) & 1) != 0) --kd;
                    if (kd == 0 || (prune && b * md * kd * nd < minCores)) continue;
                    s.shapeBatch = divUp(s.batch, b);
                    s.shapeM = bestSingleCore(s.aC1, mappedM, md);
                    s.shapeN = bestSingleCore(s.bC1, mappedN, nd) * s.kh * s.kw;
                    s.shapeK = divUp(origK, kd);
                    s.mAl1 = s.nBl1 = s.dbAl1 = s.dbBl1 = 1;
                    s.k = s.kAl1 = s.kBl1 = 2;
                    if (!s.chooseMN()) continue;
                    if ((s.shapeK * s.m > kL0aNzSize || s.shapeK * s.n > kL0aNzSize) &&
                        bestCycles != std::numeric_limits<i64>::max()) {
                        bool prime = s.shapeK > 1;
                        for (i64 d = 2; d * d <= s.shapeK && prime; ++d) prime = s.shapeK % d != 0;
                        if (prime) continue;
                    }
                    if (!s.chooseK()) continue;
                    const i64 c = s.cycles(md, kd, nd);
                    if (c >= bestCycles) continue;
                    bestCycles = c;
                    best.batchDim = static_cast<std::uint32_t>(b);
                    best.mDim = static_cast<std::uint32_t>(md);
                    best.kDim = static_cast<std::uint32_t>(kd);
                    best.nDim = static_cast<std::uint32_t>(nd);
                    best.baseM = static_cast<std::uint32_t>(s.m * kBlock);
                    best.baseN = static_cast<std::uint32_t>(s.n * kBlock);
                    best.baseK = static_cast<std::uint32_t>(s.k * s.k0);
                    best.l1Positions = static_cast<std::uint32_t>(std::min(s.kAl1, s.kBl1) * s.k0);
                    best.l1Buffers = s.dbAl1 == 2 && s.dbBl1 == 2 ? 2 : 1;
                }
            }
        }
    };
    loop(s.batch >= coreCount);
    if (best.batchDim == 0) loop(false);
    if (best.batchDim == 0) return best;
    // The per-block shares: channels in C0 groups of the input dtype (conv3d_backprop_filter_v2_base_
    // tiling.cpp InitTilingValue); positions the cache tiling's single-core k (GetCycleByModel's
    // single_core_k, the TBE binary schedule's hw_single_core_factor; see the header), so a block of
    // the 27 × 27 row holds 128 positions of an image, four whole 32-position steps, where whole
    // output rows (⌈27 / 6⌉ · 27 = 135) left a 7-position step an image.
    const std::uint64_t c0 = 32 / elementBytes;
    best.imagesPerBlock = divUp(s.batch, best.batchDim);
    best.coutPerBlock = static_cast<std::uint64_t>(
        alignUp(divUp(divUp(static_cast<i64>(outChannels), static_cast<i64>(c0)), best.mDim) * static_cast<i64>(c0), kBlock));
    best.cinPerBlock =
        static_cast<std::uint64_t>(divUp(divUp(static_cast<i64>(inChannels), static_cast<i64>(c0)), best.nDim)) * c0;
    best.positionsPerBlock = static_cast<std::uint64_t>(divUp(origK, best.kDim) * s.k0);
    return best;
}

}  // namespace ascendsim
