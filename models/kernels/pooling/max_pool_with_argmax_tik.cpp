// MaxPoolWithArgmaxV1's TIK kernel (fp16): see max_pool_argmax_tik.h. The ISA model has no
// bit-producing compare: vcmpv_eq is issued with its repeats into a scratch tile and the mask bits
// are not computed (their bytes, moves and vand / vor / vnot work are); vnot is a Copy of the same
// lanes.
#include "models/kernels/pooling/max_pool_argmax_tik.h"

#include <algorithm>
#include <memory>

#include "models/kernels/pooling/tik_scalar_work.h"
#include "models/kernels/tiling/vector_tiling_stream.h"

namespace ascendsim {

namespace {

// CANN's kernel (dynamic/max_pool_with_argmaxv2.py): UB less RESERVED_UB_SIZE (8 KiB) in elements,
// a gather buffer of UB_SRC_SIZE (256 × 16) elements, GATHER_LEN (256) positions compared at a time.
constexpr std::uint64_t kTikPoolReservedUbBytes = 8192;
constexpr std::uint64_t kTikPoolUbParts = 6;
constexpr std::uint64_t kTikPoolGatherPositions = 256;
constexpr std::uint64_t kTikPoolMaskRepeatEntries = 128;  // uint16 lanes of one repeat
// The y store's hand-off inside a unit (the tile stream uses events 0-2).
constexpr std::uint8_t kMaxStoredEvent = 3;

enum class TikPoolMode : std::uint8_t { WholePlanes, RowBands };

struct TikPoolLayout {
    ArgmaxPoolGeometry g;
    ArgmaxPoolTensors t;
    TikPoolMode mode = TikPoolMode::WholePlanes;
    std::uint64_t planesPerUnit = 1;  // c_factor (mode 1)
    std::uint64_t bandRows = 0, bandsPerPlane = 1;  // h_factor (mode 4)
    std::uint64_t partBytes = 0, parts = 0, gather = 0, compare = 0;
    std::uint64_t x(std::uint32_t set) const { return parts + (3 * set + 0) * partBytes; }
    std::uint64_t y(std::uint32_t set) const { return parts + (3 * set + 1) * partBytes; }
    std::uint64_t z(std::uint32_t set) const { return parts + (3 * set + 2) * partBytes; }
    // Output rows of band `band`.
    std::uint64_t rowsOf(std::uint64_t band) const { return std::min(bandRows, g.outH - band * bandRows); }
    // Input rows a band of `rows` output rows reads.
    std::uint64_t inputRows(std::uint64_t rows) const { return (rows - 1) * g.sh + g.kh; }
};

// One unit's vector-pipe program as TIK issues it: each instruction behind a PIPE_V barrier (its
// scalar work goes in front of it once the unit is built, addTikScalarWork).
class TikIssue {
public:
    explicit TikIssue(std::vector<Instruction>& out) : out_(out) {}
    void append(const std::vector<Instruction>& instructions) {
        for (const Instruction& i : instructions) {
            out_.push_back(Instruction::barrier(Pipe::Vector));
            out_.push_back(i);
        }
    }
    std::vector<Instruction>& scratch() {
        scratch_.clear();
        return scratch_;
    }
    void flush() { append(scratch_); }

private:
    std::vector<Instruction>& out_;
    std::vector<Instruction> scratch_;
};

class TikPoolTiles final : public TileSource {
public:
    TikPoolTiles(std::shared_ptr<const TikPoolLayout> l, UnitRange planes) : l_(std::move(l)), planes_(planes) {}
    std::uint64_t tileCount() const override {
        return l_->mode == TikPoolMode::WholePlanes ? ceilDiv(planes_.size(), l_->planesPerUnit)
                                                     : l_->bandsPerPlane * planes_.size();
    }
    // The two sets of parts, used by alternate units (ub_a..c, ub_d..f).
    std::uint32_t buffers() const override { return 2; }
    void tile(std::uint64_t index, std::uint32_t set, TileCode& code) override {
        const TikPoolLayout& l = *l_;
        const ArgmaxPoolGeometry& g = l.g;
        std::uint64_t first = 0, count = 1, band = 0;
        if (l.mode == TikPoolMode::WholePlanes) {
            first = planes_.begin + index * l.planesPerUnit;
            count = std::min(l.planesPerUnit, planes_.end - first);
        } else {
            band = index / planes_.size();
            first = planes_.begin + index % planes_.size();
        }
        const std::uint64_t rows = l.mode == TikPoolMode::WholePlanes ? g.outH : l.rowsOf(band);
        const std::uint64_t r0 = band * l.bandRows, inRows = l.inputRows(rows), pb = g.positionBytes();
        const std::uint64_t xPlane = inRows * g.w * pb, yPlane = std::max(inRows * g.outW, rows * g.w) * pb;
        const std::uint64_t zPlane = rows * g.outW * pb;
        // Mask entries of one tap of one plane: the plane's (mode 1) or the band's, 16-aligned.
        const std::uint64_t tapEntries =
            l.mode == TikPoolMode::WholePlanes ? g.maskTapEntries() : alignUp(rows * g.outW, 16);
        const std::uint64_t maskPlane = g.taps() * tapEntries * 2;
        for (std::uint64_t e = 0; e < count; ++e) {
            const std::uint64_t gm = l.t.x + ((first + e) * g.h + r0 * g.sh) * g.w * pb;
            code.load.push_back(moveRowsToUb(gm, l.x(set) + e * xPlane, 1, inRows * g.w * pb, inRows * g.w * pb));
        }
        TikIssue issue(code.compute);
        for (std::uint64_t e = 0; e < count; ++e)
            reduceMax(issue, l.x(set) + e * xPlane, l.y(set) + e * yPlane, l.z(set) + e * zPlane, rows);
        // y leaves before the mask work rewrites its buffer (TIK's MTE3 → V wait on ub_z).
        code.compute.push_back(Instruction::setFlag(Pipe::Vector, Pipe::Mte3, kMaxStoredEvent));
        code.compute.push_back(Instruction::waitFlag(Pipe::Vector, Pipe::Mte3, kMaxStoredEvent));
        code.compute.push_back(moveRowsToGm(l.z(set), l.t.y + ((first * g.outH) + r0) * g.outW * pb,
                                            static_cast<std::uint32_t>(count), rows * g.outW * pb, zPlane));
        code.compute.push_back(Instruction::setFlag(Pipe::Mte3, Pipe::Vector, kMaxStoredEvent));
        for (std::uint64_t e = 0; e < count; ++e)
            gatherCompare(issue, l.x(set) + e * xPlane, l.z(set) + e * zPlane, rows);
        code.compute.push_back(Instruction::waitFlag(Pipe::Mte3, Pipe::Vector, kMaxStoredEvent));
        for (std::uint64_t e = 0; e < count; ++e) {
            exclusiveBits(issue, l.x(set) + e * maskPlane, l.y(set) + e * maskPlane, l.z(set) + e * maskPlane, tapEntries);
            if (l.mode == TikPoolMode::WholePlanes)  // the unit's masks, moved once per plane
                code.store.push_back(moveRowsToGm(l.y(set), l.t.mask + first * g.taps() * tapEntries * 2, 1,
                                                  count * maskPlane, count * maskPlane));
        }
        if (l.mode == TikPoolMode::RowBands) {
            for (std::uint64_t k = 0; k < g.taps(); ++k)
                code.store.push_back(moveRowsToGm(l.y(set) + k * tapEntries * 2,
                                                  l.t.mask + ((first * g.taps() + k) * g.maskTapEntries() + r0 * g.outW) * 2,
                                                  1, tapEntries * 2, tapEntries * 2));
        }
        addTikScalarWork(code.compute);
    }

private:
    // The window's max: along W into y (input rows × Wo), then along H into z (rows × Wo).
    void reduceMax(TikIssue& issue, std::uint64_t x, std::uint64_t y, std::uint64_t z, std::uint64_t rows) const {
        const ArgmaxPoolGeometry& g = l_->g;
        const std::uint64_t pb = g.positionBytes(), inRows = l_->inputRows(rows);
        // sw == kw: the rows' windows tile them, one instruction run over all of them (TIK's
        // strides_w == ksize_w branch); otherwise one run per row.
        const bool wholeW = g.sw == g.kw;
        for (std::uint64_t r = 0; r < (wholeW ? 1 : inRows); ++r) {
            const std::uint64_t positions = wholeW ? inRows * g.outW : g.outW;
            const std::uint64_t src = x + r * g.w * pb, dst = y + r * g.outW * pb;
            const std::uint64_t second = g.kw > 1 ? src + pb : src;
            emitPositions(issue.scratch(), VectorOp::Max, g.dtype,
                          {.dst = dst, .src0 = src, .src1 = second, .src0Stride = g.sw, .src1Stride = g.sw}, positions);
            issue.flush();
            for (std::uint64_t j = 2; j < g.kw; ++j) {
                emitPositions(issue.scratch(), VectorOp::Max, g.dtype,
                              {.dst = dst, .src0 = src + j * pb, .src1 = dst, .src0Stride = g.sw}, positions);
                issue.flush();
            }
        }
        const bool wholeH = g.sh == 1;
        for (std::uint64_t o = 0; o < (wholeH ? 1 : rows); ++o) {
            const std::uint64_t positions = wholeH ? rows * g.outW : g.outW;
            const std::uint64_t src = y + o * g.sh * g.outW * pb, dst = z + o * g.outW * pb;
            const std::uint64_t second = g.kh > 1 ? src + g.outW * pb : src;
            emitPositions(issue.scratch(), VectorOp::Max, g.dtype, {.dst = dst, .src0 = src, .src1 = second}, positions);
            issue.flush();
            for (std::uint64_t i = 2; i < g.kh; ++i) {
                emitPositions(issue.scratch(), VectorOp::Max, g.dtype,
                              {.dst = dst, .src0 = src + i * g.outW * pb, .src1 = dst}, positions);
                issue.flush();
            }
        }
    }

    // Per tap and per 256 output positions: the tap's inputs gathered (one UB → UB move per run of
    // one output row) and compared with the max.
    void gatherCompare(TikIssue& issue, std::uint64_t x, std::uint64_t z, std::uint64_t rows) const {
        const TikPoolLayout& l = *l_;
        const ArgmaxPoolGeometry& g = l.g;
        const std::uint64_t pb = g.positionBytes(), positions = rows * g.outW;
        for (std::uint64_t k = 0; k < g.taps(); ++k) {
            const std::uint64_t i = k / g.kw, j = k % g.kw;
            for (std::uint64_t p0 = 0; p0 < positions; p0 += kTikPoolGatherPositions) {
                const std::uint64_t n = std::min(kTikPoolGatherPositions, positions - p0);
                std::vector<Instruction>& moves = issue.scratch();
                for (std::uint64_t p = p0; p < p0 + n;) {
                    const std::uint64_t oh = p / g.outW, ow = p % g.outW, run = std::min(g.outW - ow, p0 + n - p);
                    DataMove m{.src = MemSpace::UB, .dst = MemSpace::UB,
                               .srcAddr = x + ((oh * g.sh + i) * g.w + ow * g.sw + j) * pb, .dstAddr = l.gather + (p - p0) * pb};
                    m.burstCount = static_cast<std::uint32_t>(run);
                    m.burstBytes = static_cast<std::uint32_t>(pb);
                    m.srcGapBytes = static_cast<std::uint32_t>((g.sw - 1) * pb);
                    moves.push_back(Instruction::move(m));
                    p += run;
                }
                issue.flush();
                VectorInstr cmp;
                cmp.op = VectorOp::CompareGt;
                cmp.dtype = g.dtype;
                cmp.srcType = g.dtype;
                cmp.mask = static_cast<std::uint16_t>(kVectorRepeatBytes / bytesOf(g.dtype));
                cmp.repeats = static_cast<std::uint16_t>(ceilDiv(n * pb, kVectorRepeatBytes));
                cmp.dst = l.compare;
                cmp.src0 = l.gather;
                cmp.src1 = z + p0 * pb;
                issue.append({Instruction::vector(cmp)});
            }
        }
    }

    // The taps' bits made exclusive: tap 0 copied to the running Or and inverted; then per tap
    // And with the complement, Or into the running bits, the complement renewed.
    void exclusiveBits(TikIssue& issue, std::uint64_t seen, std::uint64_t mask, std::uint64_t notSeen,
                       std::uint64_t tapEntries) const {
        for (std::uint64_t k = 0; k < l_->g.taps(); ++k) {
            const std::uint64_t bits = mask + k * tapEntries * 2;
            std::vector<Instruction>& v = issue.scratch();
            if (k == 0) {
                DataMove m{.src = MemSpace::UB, .dst = MemSpace::UB, .srcAddr = bits, .dstAddr = seen};
                m.burstBytes = static_cast<std::uint32_t>(tapEntries * 2);
                v.push_back(Instruction::move(m));
                emitVectorRange(v, VectorOp::Copy, DataType::Int16, {.dst = notSeen, .src0 = bits}, tapEntries);
            } else {
                emitVectorRange(v, VectorOp::And, DataType::Int16, {.dst = bits, .src0 = notSeen, .src1 = bits}, tapEntries);
                emitVectorRange(v, VectorOp::Or, DataType::Int16, {.dst = seen, .src0 = seen, .src1 = bits}, tapEntries);
                emitVectorRange(v, VectorOp::Copy, DataType::Int16, {.dst = notSeen, .src0 = seen}, tapEntries);
            }
            issue.flush();
        }
    }

    std::shared_ptr<const TikPoolLayout> l_;
    UnitRange planes_;
};

}  // namespace

LoweredKernel lowerMaxPoolWithArgmaxTik(const OpInstance& op, const ChipConfig& chip, const ArgmaxPoolGeometry& g,
                                        const ArgmaxPoolTensors& t, std::uint64_t workBytes) {
    if (g.sw > 31) throwLoweringError(op, "a window stride past 31 positions (TIK's per-position form) is not modelled");
    auto l = std::make_shared<TikPoolLayout>();
    l->g = g;
    l->t = t;
    const VectorPlacement placement = vectorPlacement(chip);
    const std::uint64_t element = bytesOf(g.dtype), c0 = kArgmaxPoolC0;
    if (placement.ubBytes <= kTikPoolReservedUbBytes + kTikPoolGatherPositions * c0 * element)
        throwLoweringError(op, "UB smaller than the kernel's reserve and gather buffer");
    // The tiling's budget: a sixth of UB less the reserve, in elements (maxpoolwithargmaxv2.cc).
    const std::uint64_t ubElements = (placement.ubBytes - kTikPoolReservedUbBytes) / element;
    const std::uint64_t sixth = ubElements / kTikPoolUbParts, alignedOutW = alignUp(g.outW, 16);
    const std::uint64_t planeNeed = std::max(g.h * g.w * c0, alignedOutW * g.outH * g.taps());
    const std::uint64_t windowNeed = std::max(g.kh * g.w * c0, alignedOutW * g.taps());
    if (planeNeed <= sixth) {  // mode 1
        l->mode = TikPoolMode::WholePlanes;
        l->planesPerUnit = sixth / planeNeed;
        l->bandRows = g.outH;
    } else if (windowNeed <= sixth) {  // mode 4: GetFactor's rows
        l->mode = TikPoolMode::RowBands;
        const std::uint64_t byMask = sixth / (alignedOutW * g.taps());
        const std::uint64_t byInput = (sixth / (g.w * c0) - g.kh) / g.sh + 1;
        l->bandRows = std::max<std::uint64_t>(1, std::min({byMask, byInput, g.outH}));
    } else {
        throwLoweringError(op, "a window's rows do not fit a sixth of UB (CANN's W cut, mode 3, is not modelled)");
    }
    // The parts of dynamic_ub_tensor: (UB elements less the gather buffer) / 6. The tiling sizes units
    // by a sixth of the whole UB; a unit the smaller part cannot hold is cut to one that it can.
    l->partBytes = (ubElements - kTikPoolGatherPositions * c0) / kTikPoolUbParts * element / kUbBlockBytes * kUbBlockBytes;
    auto unitFits = [&](std::uint64_t planes, std::uint64_t rows) {
        const std::uint64_t pb = g.positionBytes(), inRows = (rows - 1) * g.sh + g.kh;
        const std::uint64_t tapEntries = l->mode == TikPoolMode::WholePlanes ? g.maskTapEntries() : alignUp(rows * g.outW, 16);
        const std::uint64_t masks = g.taps() * tapEntries * 2;
        const std::uint64_t perPlane = std::max({inRows * g.w * pb, std::max(inRows * g.outW, rows * g.w) * pb, masks});
        return planes * perPlane <= l->partBytes;
    };
    while (!unitFits(l->planesPerUnit, l->bandRows) && l->planesPerUnit > 1) --l->planesPerUnit;
    while (!unitFits(l->planesPerUnit, l->bandRows) && l->bandRows > 1) {
        l->mode = TikPoolMode::RowBands;
        --l->bandRows;
    }
    if (!unitFits(l->planesPerUnit, l->bandRows)) throwLoweringError(op, "one output row's window does not fit a UB part");
    l->bandsPerPlane = ceilDiv(g.outH, l->bandRows);
    UbAllocator ub(placement.ubBytes, op.name);
    l->gather = ub.allocate(kTikPoolGatherPositions * c0 * element, "gather buffer (ub_src)");
    l->parts = ub.allocate(kTikPoolUbParts * l->partBytes, "ub_a..ub_f");
    l->compare = ub.allocate(kTikPoolGatherPositions * c0 * element, "vcmpv stand-in's lanes");
    return tiledVectorKernel<TikPoolTiles>(op, placement, l, workBytes, g.planes);
}

}  // namespace ascendsim
