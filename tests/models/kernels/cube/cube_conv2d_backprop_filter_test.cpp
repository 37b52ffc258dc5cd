// Conv2DBackpropFilter lowered programs match a naive reference, with and without the reduction
// split over blocks (atomic accumulation after a zero-fill kernel).
#include <gtest/gtest.h>

#include <set>
#include <tuple>

#include "models/kernels/cube/conv/conv2d_backprop_filter_operands.h"
#include "tests/models/kernels/cube_conv_reference.h"
#include "tests/models/kernels/cube/filter_grad_test_op.h"
#include "tests/models/kernels/cube_test_support.h"
#include "tests/models/kernels/test_chip.h"

namespace ascendsim::test {
namespace {

// The instructions of every block of an AI-core kernel, block after block.
std::vector<Instruction> everyBlockProgram(const LoweredKernel& kernel) {
    std::vector<Instruction> program;
    for (std::uint32_t block = 0; block < kernel.blockDim; ++block) {
        auto stream = kernel.program({block, CoreKind::Cube, 0});
        while (stream->next(program)) {
        }
    }
    return program;
}

void runFilterGrad(const ChipConfig& chip, const ConvShape& s, std::optional<std::uint32_t> blockDim) {
    CubeOpHarness h(chip);
    TensorInfo x, dy, dw;
    auto op = filterGradOp(h, s, x, dy, dw);
    op.blockDim = blockDim;
    const auto xv = h.fillRandom(x), dyv = h.fillRandom(dy);
    h.fill(dw, 555.0f);  // the lowering must not rely on a zeroed output
    h.run(op);
    expectNear(h.read(dw), referenceConvFilterGrad(s, xv, dyv), 2e-3, 1e-4,
               "filter grad blockDim " + (blockDim ? std::to_string(*blockDim) : std::string("default")));
}

TEST(CubeConv2DBackpropFilter, ThreeByThreeStride1MatchesReferenceForEveryBlockDim) {
    const auto chip = ascend910B1();
    for (std::optional<std::uint32_t> blockDim : {std::optional<std::uint32_t>{1}, std::optional<std::uint32_t>{},
                                                  std::optional<std::uint32_t>{5}})
        runFilterGrad(chip, {3, 10, 13, 12, 20, 3, 3, 1, 1, 1, 1, 1, 1}, blockDim);
}

TEST(CubeConv2DBackpropFilter, StridedSevenBySevenAndOneByOneMatchReference) {
    const auto chip = ascend910B1();
    runFilterGrad(chip, {2, 3, 24, 24, 16, 7, 7, 2, 2, 3, 3, 3, 3}, std::nullopt);
    runFilterGrad(chip, {2, 140, 10, 10, 36, 1, 1, 2, 2}, 2u);
}

TEST(CubeConv2DBackpropFilter, SplitReductionZeroFillsThenAccumulatesAtomically) {
    const auto chip = ascend910B1();
    CubeOpHarness h(chip);
    TensorInfo x, dy, dw;
    const ConvShape s{4, 16, 20, 20, 32, 3, 3, 1, 1, 1, 1, 1, 1};
    auto op = filterGradOp(h, s, x, dy, dw);
    const auto kernels = h.lower(op);
    ASSERT_EQ(kernels.size(), 2u);  // 1 output tile (32 x 144 → 1 x 2 tiles) < 24 cores: split
    EXPECT_EQ(kernels[0].type, TaskType::AiVectorCore);
    EXPECT_EQ(kernels[0].kernelSuffix, "AtomicAddrClean");
    EXPECT_EQ(kernels[0].reportedOpType, "MemSet");  // its own MemSet task, as the chip reports it (§136)
    EXPECT_GT(kernels[1].blockDim, 2u);
    op.blockDim = 1;
    EXPECT_EQ(h.lower(op).size(), 1u);  // one block owns the whole reduction: no atomics
}

// The batch is bound to the cores first even when the output tiles alone would fill them: 36 tiles
// of a 2.4 MB dw on 24 cores, 4 images -> 4 splits, each accumulating its partial dw atomically
// after the zero fill (with one image the tiles are not split).
TEST(CubeConv2DBackpropFilter, BatchIsSplitOverTheCoresBeforeTheOutputTiles) {
    const auto chip = ascend910B1();
    CubeOpHarness h(chip, 1 << 20);  // only lowering
    const auto atomicStores = [&h](std::int64_t images) {
        TensorInfo x, dy, dw;
        const auto kernels = h.lower(filterGradOp(h, {images, 256, 6, 6, 256, 3, 3, 1, 1, 1, 1, 1, 1}, x, dy, dw));
        std::uint64_t atomic = 0, plain = 0;
        for (const auto& i : everyBlockProgram(kernels.back())) {
            if (i.opcode != Opcode::DataMove) continue;
            const auto& m = std::get<DataMove>(i.operands);
            if (m.src == MemSpace::L0C) (m.atomicAdd ? atomic : plain) += 1;
        }
        return std::make_tuple(kernels.size(), atomic, plain);
    };
    EXPECT_EQ(atomicStores(4), std::make_tuple(std::size_t{2}, std::uint64_t{4 * 36}, std::uint64_t{0}));
    EXPECT_EQ(atomicStores(1), std::make_tuple(std::size_t{1}, std::uint64_t{0}, std::uint64_t{36}));
}

// A block of the coupled chip (TBE v100's schedule) whose tiles are several column tiles of one
// split and co-tile keeps their dy rows resident in L1 (planResidentDy): 32 x 288 columns are
// several column tiles, and one block reads dy once; two blocks (one image each) read it once
// between them. Both compute the reference.
TEST(CubeConv2DBackpropFilter, ColumnTilesOfOneSplitShareResidentDy) {
    const auto chip = coupledChip();
    const ConvShape s{2, 32, 13, 13, 32, 3, 3, 1, 1, 1, 1, 1, 1};
    runFilterGrad(chip, s, 1u);
    runFilterGrad(chip, s, 2u);
    CubeOpHarness h(chip, 1 << 20);  // lowering only
    TensorInfo x, dy, dw;
    auto op = filterGradOp(h, s, x, dy, dw);
    const auto dyBytesRead = [&](std::uint32_t blockDim) {
        op.blockDim = blockDim;
        const LoweredKernel kernel = h.lower(op).back();
        std::uint64_t bytes = 0;
        for (std::uint32_t block = 0; block < kernel.blockDim; ++block) bytes += gmToL1BytesFrom(kernel, block, dy);
        return bytes;
    };
    EXPECT_EQ(dyBytesRead(1), static_cast<std::uint64_t>(dy.bytes()));
    EXPECT_EQ(dyBytesRead(2), static_cast<std::uint64_t>(dy.bytes()));
}

// On the split cube each L0 step fills an L0A half: 128 output channels × 64 fp32 positions (32 KiB)
// per dy move into L0A, two steps per 128-position L1 chunk, as CANN's dw tiling deepens baseK
// (docs/fidelity.md §86); the coupled chip keeps 32-position steps (16 KiB moves) and takes all 144
// columns as one tile (§105). The deeper steps issue half the mmads and still compute the reference.
TEST(CubeConv2DBackpropFilter, SplitCubeStepsFillAnL0HalfTheCoupledCubeKeepsTheShallowStep) {
    const ConvShape s{2, 16, 13, 13, 128, 3, 3, 1, 1, 1, 1, 1, 1};
    const auto stepsOf = [&s](const ChipConfig& chip, std::uint64_t& l0aMoveBytes) {
        CubeOpHarness h(chip, 1 << 20);  // lowering only
        TensorInfo x, dy, dw;
        auto op = filterGradOp(h, s, x, dy, dw, DataType::Fp32);
        op.blockDim = 1;
        std::uint64_t mmads = 0;
        l0aMoveBytes = 0;
        for (const auto& i : everyBlockProgram(h.lower(op).back())) {
            if (i.opcode == Opcode::Mmad) ++mmads;
            if (i.opcode != Opcode::DataMove) continue;
            const auto& m = std::get<DataMove>(i.operands);
            if (m.dst == MemSpace::L0A) l0aMoveBytes = std::max<std::uint64_t>(l0aMoveBytes, m.totalBytes());
        }
        return mmads;
    };
    const ChipConfig split = ascend910B1(), coupled = coupledChip();
    std::uint64_t splitMove = 0, coupledMove = 0;
    const std::uint64_t splitSteps = stepsOf(split, splitMove);
    const std::uint64_t coupledSteps = stepsOf(coupled, coupledMove);
    EXPECT_EQ(splitMove, 128u * 64 * 4);
    EXPECT_EQ(coupledMove, 128u * 32 * 4);
    // 2 images × 169 positions in 128-position chunks (128 + 41): 2 + 1 steps a chunk on the split
    // cube for each of its 2 column tiles (128 + 16 of the 144 columns), 4 + 2 on the coupled one for
    // its single 144-column tile.
    EXPECT_EQ(splitSteps, 2u * 3 * 2);
    EXPECT_EQ(coupledSteps, 2u * 6 * 1);

    CubeOpHarness h(split);
    TensorInfo x, dy, dw;
    auto op = filterGradOp(h, s, x, dy, dw, DataType::Fp32);
    op.blockDim = 2;
    const auto xv = h.fillRandom(x), dyv = h.fillRandom(dy);
    h.run(op);
    // fp32 runs as hf32 (convTypes): its inputs rounded, so the tolerance of cube_conv2d_test's hf32 cases.
    expectNear(h.read(dw), referenceConvFilterGrad(s, xv, dyv), 2e-2, 5e-3, "fp32 filter grad, L0-filling steps");
}

// The split cube runs a block's share of the reduction image by image (CANN's Conv3dDw::Process:
// IterateAll with atomic add inside the batch loop), the shares being whole output rows (CANN's ho
// split, §136): 4 fp32 images of 13 × 13 are 52 rows, 17 / 17 / 18 on 3 blocks, each share two image
// segments (13 + 4, 9 + 8, 5 + 13 rows); each segment runs the 3 column tiles and stores each tile
// atomically, so every block stores 6 tiles and reads its rows of dy once per column tile (CANN's
// ORDER_N reloads dy for every column tile, §136g). The gradient is the reference.
TEST(CubeConv2DBackpropFilter, SplitCubeRunsItsReductionImageByImageThroughTheColumnTiles) {
    const ConvShape s{4, 32, 13, 13, 32, 3, 3, 1, 1, 1, 1, 1, 1};
    const ChipConfig chip = ascend910B1();
    CubeOpHarness h(chip);
    TensorInfo x, dy, dw;
    auto op = filterGradOp(h, s, x, dy, dw, DataType::Fp32);
    op.blockDim = 3;
    const LoweredKernel kernel = h.lower(op).back();
    ASSERT_EQ(kernel.blockDim, 3u);
    std::vector<std::uint64_t> atomicStores, dyBytes;
    std::uint64_t plainStores = 0;
    for (std::uint32_t block = 0; block < kernel.blockDim; ++block) {
        std::uint64_t stores = 0;
        auto stream = kernel.program({block, CoreKind::Cube, 0});
        std::vector<Instruction> program;
        while (stream->next(program)) {
        }
        for (const auto& i : program) {
            if (i.opcode != Opcode::DataMove || std::get<DataMove>(i.operands).src != MemSpace::L0C) continue;
            ++(std::get<DataMove>(i.operands).atomicAdd ? stores : plainStores);
        }
        atomicStores.push_back(stores);
        dyBytes.push_back(gmToL1BytesFrom(kernel, block, dy));
    }
    EXPECT_EQ(atomicStores, (std::vector<std::uint64_t>{6, 6, 6}));
    EXPECT_EQ(plainStores, 0u);
    const std::uint64_t dyRowBytes = 13u * 32 * 4;  // one output row of every dy channel, fp32
    EXPECT_EQ(dyBytes, (std::vector<std::uint64_t>{3 * 17 * dyRowBytes, 3 * 17 * dyRowBytes, 3 * 18 * dyRowBytes}));

    const auto xv = h.fillRandom(x), dyv = h.fillRandom(dy);
    h.fill(dw, 555.0f);
    h.run(op);
    // fp32 runs as hf32 (convTypes): the tolerance of the fp32 case above.
    expectNear(h.read(dw), referenceConvFilterGrad(s, xv, dyv), 2e-2, 5e-3, "fp32 filter grad, image by image");
}

// The dw's x img2col is the cube's B, written into L0B by the chip as by the model (Img2ColLoad::
// chipDst, timed at L0B's write rate), and on the split cores its FixPipe stores wait for the cube
// on a plain event (the arch22 kernel has no unit flag: the wait is not FIX busy); docs/fidelity.md
// §115. The coupled 910A stores through UB: no FixPipe wait.
TEST(CubeConv2DBackpropFilter, XIsImg2colIntoL0bTheSplitCoresStoreWithoutTheUnitFlag) {
    const ConvShape s{2, 16, 13, 13, 128, 3, 3, 1, 1, 1, 1, 1, 1};
    const auto count = [&s](const ChipConfig& chip, int& l0bImg2cols, int& plainFixWaits, int& unitFixWaits) {
        CubeOpHarness h(chip, 1 << 20);  // lowering only
        TensorInfo x, dy, dw;
        auto op = filterGradOp(h, s, x, dy, dw, DataType::Fp32);
        op.blockDim = 1;
        l0bImg2cols = plainFixWaits = unitFixWaits = 0;
        for (const auto& i : everyBlockProgram(h.lower(op).back())) {
            if (i.opcode == Opcode::Img2Col && std::get<Img2ColLoad>(i.operands).chipDst == MemSpace::L0B)
                ++l0bImg2cols;
            if (i.opcode != Opcode::WaitFlag) continue;
            const Flag& f = std::get<Flag>(i.operands);
            if (f.src == Pipe::Cube && f.dst == Pipe::FixPipe) ++(f.unitFlag ? unitFixWaits : plainFixWaits);
        }
    };
    int l0b = 0, plain = 0, unit = 0;
    count(ascend910B1(), l0b, plain, unit);
    EXPECT_EQ(l0b, 2 * 3 * 2);  // every step's img2col (2 images x 3 steps x 2 column tiles)
    EXPECT_EQ(plain, 2);        // one store a column tile
    EXPECT_EQ(unit, 0);
    count(coupledChip(), l0b, plain, unit);
    EXPECT_EQ(l0b, 2 * 6 * 1);   // its shallow steps, one 144-column tile
    EXPECT_EQ(plain + unit, 0);  // L0C -> UB -> GM: no FixPipe wait
}

// The coupled 910A's TBE dw schedule loads x into L1 inside every output tile's loop as NC1HWC0
// blocks, and its column tile fills an L0B half at the shallow step (docs/fidelity.md §105): a
// 5 × 5 dw over 16 fp16 channels (400 columns) is two tiles of up to 256 columns, each reading the
// whole C0 block of x (twice x in all, one 64 × 256 img2col block of 32 KiB a step). The split cube
// keeps 128-column tiles that read the channels they touch (6 + 6 + 6 + 1 of 16). Both compute the
// reference.
TEST(CubeConv2DBackpropFilter, CoupledChipReadsWholeC0BlocksOfXPerColumnTileOfAnL0bHalf) {
    const ConvShape s{1, 16, 12, 12, 32, 5, 5, 1, 1, 2, 2, 2, 2};
    const auto xBytesAndWidestImg2col = [&s](const ChipConfig& chip, std::uint64_t& img2colBytes) {
        CubeOpHarness h(chip, 1 << 20);  // lowering only
        TensorInfo x, dy, dw;
        auto op = filterGradOp(h, s, x, dy, dw);
        op.blockDim = 1;
        const LoweredKernel kernel = h.lower(op).back();
        img2colBytes = 0;
        for (const auto& i : everyBlockProgram(kernel))
            if (i.opcode == Opcode::Img2Col)
                img2colBytes = std::max<std::uint64_t>(img2colBytes, std::get<Img2ColLoad>(i.operands).totalBytes());
        return gmToL1BytesFrom(kernel, 0, x);
    };
    const ChipConfig split = ascend910B1(), coupled = coupledChip();
    std::uint64_t splitImg2col = 0, coupledImg2col = 0;
    const std::uint64_t plane = 12u * 12 * 2;  // one channel of x, fp16
    EXPECT_EQ(xBytesAndWidestImg2col(coupled, coupledImg2col), 2u * 16 * plane);
    EXPECT_EQ(xBytesAndWidestImg2col(split, splitImg2col), (6u + 6 + 6 + 1) * plane);
    EXPECT_EQ(coupledImg2col, 64u * 256 * 2);
    runFilterGrad(coupled, s, 1u);
    runFilterGrad(coupled, s, std::nullopt);
}

// The split cube shares whole output rows out, so it takes no more splits than rows: one wide
// image of 3 output rows (900 positions, 4 fp16 chunks of 256) and one output tile splits 3 ways,
// every block storing its partial dw once; the gradient is the reference.
TEST(CubeConv2DBackpropFilter, SplitCubeTakesNoMoreSplitsThanOutputRows) {
    const ConvShape s{1, 4, 3, 300, 16, 3, 3, 1, 1, 1, 1, 1, 1};
    const ChipConfig chip = ascend910B1();
    CubeOpHarness h(chip);
    TensorInfo x, dy, dw;
    const auto op = filterGradOp(h, s, x, dy, dw);
    const LoweredKernel kernel = h.lower(op).back();
    ASSERT_EQ(kernel.blockDim, 3u);
    for (std::uint32_t block = 0; block < kernel.blockDim; ++block) {
        std::uint64_t stores = 0;
        auto stream = kernel.program({block, CoreKind::Cube, 0});
        std::vector<Instruction> program;
        while (stream->next(program)) {
        }
        for (const auto& i : program)
            if (i.opcode == Opcode::DataMove && std::get<DataMove>(i.operands).src == MemSpace::L0C) ++stores;
        EXPECT_EQ(stores, 1u) << "block " << block;
    }
    runFilterGrad(chip, s, std::nullopt);
}

// The split cube's dw kernel accumulates every output tile in one L0C buffer (cl0Pbuffer 1, §136):
// a tile's mmads all write L0C's first slot, so its first mmad waits for the previous tile's store.
// The coupled 910A keeps two buffers, alternating tiles between them. Both compute the reference.
TEST(CubeConv2DBackpropFilter, SplitCubeAccumulatesEveryTileInOneL0cBuffer) {
    const ConvShape s{2, 32, 13, 13, 32, 3, 3, 1, 1, 1, 1, 1, 1};  // 3 column tiles
    const auto l0cAddresses = [&s](const ChipConfig& chip) {
        CubeOpHarness h(chip, 1 << 20);  // lowering only
        TensorInfo x, dy, dw;
        auto op = filterGradOp(h, s, x, dy, dw);
        op.blockDim = 1;
        std::set<std::uint64_t> addresses;
        for (const auto& i : everyBlockProgram(h.lower(op).back()))
            if (i.opcode == Opcode::Mmad) addresses.insert(std::get<Mmad>(i.operands).l0cAddr);
        return addresses.size();
    };
    EXPECT_EQ(l0cAddresses(ascend910B1()), 1u);
    EXPECT_EQ(l0cAddresses(coupledChip()), 2u);
    runFilterGrad(ascend910B1(), s, 1u);
    runFilterGrad(ascend910B1(), s, std::nullopt);
}

// The split cube runs CANN's ORDER_N (asc-devkit conv3d_bp_filter_func.h; docs/fidelity.md §136g):
// a column tile's co tiles run innermost, its x band stays in L1 over them and dy is read again for
// every column tile. 160 output channels are two co tiles, 32 x 288 columns three column tiles: x
// is read as often as with one co tile, dy three times, the bands of consecutive column tiles go
// to two L1 regions, and the gradient is right on one block, two, and the default split.
TEST(CubeConv2DBackpropFilter, SplitCubeKeepsAColumnTilesXBandOverItsCoTiles) {
    const auto chip = ascend910B1();
    const ConvShape wide{2, 32, 13, 13, 160, 3, 3, 1, 1, 1, 1, 1, 1}, narrow{2, 32, 13, 13, 32, 3, 3, 1, 1, 1, 1, 1, 1};
    struct Reads {
        std::uint64_t xBytes = 0, dyBytes = 0, dyTensorBytes = 0;
        std::vector<std::uint64_t> xDestinations;
    };
    const auto reads = [&chip](const ConvShape& s) {
        CubeOpHarness h(chip, 1 << 20);  // lowering only
        TensorInfo x, dy, dw;
        auto op = filterGradOp(h, s, x, dy, dw);
        op.blockDim = 1;
        Reads r;
        r.dyTensorBytes = dy.bytes();
        for (const auto& i : everyBlockProgram(h.lower(op).back())) {
            const auto* m = std::get_if<DataMove>(&i.operands);
            if (!m || m->src != MemSpace::GM || m->dst != MemSpace::L1) continue;
            if (m->srcAddr >= x.deviceAddr && m->srcAddr < x.deviceAddr + x.bytes()) {
                r.xBytes += m->totalBytes();
                r.xDestinations.push_back(m->dstAddr);
            }
            if (m->srcAddr >= dy.deviceAddr && m->srcAddr < dy.deviceAddr + dy.bytes()) r.dyBytes += m->totalBytes();
        }
        return r;
    };
    const Reads w = reads(wide), n = reads(narrow);
    EXPECT_EQ(w.xBytes, n.xBytes);
    EXPECT_EQ(w.dyBytes, 3 * w.dyTensorBytes);
    ASSERT_EQ(w.xDestinations.size() % 3, 0u);
    const std::size_t loadsPerColumnTile = w.xDestinations.size() / 3;
    const std::set<std::uint64_t> regions(w.xDestinations.begin(), w.xDestinations.end());
    EXPECT_EQ(regions.size(), 2 * loadsPerColumnTile);
    runFilterGrad(chip, wide, 1u);
    runFilterGrad(chip, wide, 2u);
    runFilterGrad(chip, wide, std::nullopt);
}

// The filter-gradient problem of `s` in `type` (x and dy), as the lowering builds it.
FilterGradProblem filterGradProblem(const ConvShape& s, DataType type) {
    FilterGradProblem p;
    p.window.inH = static_cast<std::uint64_t>(s.h);
    p.window.inW = static_cast<std::uint64_t>(s.w);
    p.window.outH = static_cast<std::uint64_t>(s.outH());
    p.window.outW = static_cast<std::uint64_t>(s.outW());
    p.window.kernelH = static_cast<std::uint32_t>(s.kh);
    p.window.kernelW = static_cast<std::uint32_t>(s.kw);
    p.window.strideH = static_cast<std::uint32_t>(s.sh);
    p.window.strideW = static_cast<std::uint32_t>(s.sw);
    p.window.padTop = static_cast<std::uint32_t>(s.pt);
    p.window.padLeft = static_cast<std::uint32_t>(s.pl);
    p.batch = static_cast<std::uint64_t>(s.n);
    p.inChannels = static_cast<std::uint64_t>(s.c);
    p.outChannels = static_cast<std::uint64_t>(s.co);
    p.inputType = p.mmadType = type;
    return p;
}

bool xBandSingleBuffered(const ChipConfig& chip, const ConvShape& s, DataType type) {
    const FilterGradProblem p = filterGradProblem(s, type);
    FilterGradTiling tiling;
    CubeBufferPlan plan;
    planFilterGrad(makeOp("Conv2DBackpropFilter", {}, {}), chip, p, tiling, plan);
    return filterGradXBandSingleBuffered(chip, p, tiling, plan);
}

// CANN's 220x dw tiling keeps one L1 buffer of x when two of its x bands (CalBL1Bound: the input
// rows of a k chunk, two C1 rows of 16 elements a pixel) beside two dy chunks overflow L1: the
// AlexNet 910B2 stem's filter gradient (fp32, 11 × 11 / 4 over 224 × 224: 23 rows × 224 × 32
// elements, 659 KiB) does, the 5 × 5 one over 27 × 27 does not; the coupled 910A runs TBE's own
// schedule. A single-buffered plan still computes the gradient.
TEST(CubeConv2DBackpropFilter, SplitCubeKeepsOneXBufferWhenTwoOfTheChipsXBandsOverflowL1) {
    const ConvShape stem{32, 8, 224, 224, 64, 11, 11, 4, 4, 2, 2, 2, 2};
    const ConvShape conv2{32, 64, 27, 27, 192, 5, 5, 1, 1, 2, 2, 2, 2};
    EXPECT_TRUE(xBandSingleBuffered(ascend910B1(), stem, DataType::Fp32));
    EXPECT_FALSE(xBandSingleBuffered(ascend910B1(), conv2, DataType::Fp32));
    EXPECT_FALSE(xBandSingleBuffered(coupledChip(), stem, DataType::Fp32));

    ChipConfig smallL1 = ascend910B1();
    smallL1.bufferBytes[static_cast<std::size_t>(MemSpace::L1)] = 128 * 1024;
    const ConvShape small{2, 8, 40, 40, 16, 11, 11, 4, 4, 2, 2, 2, 2};
    EXPECT_FALSE(xBandSingleBuffered(ascend910B1(), small, DataType::Fp16));
    ASSERT_TRUE(xBandSingleBuffered(smallL1, small, DataType::Fp16));
    runFilterGrad(smallL1, small, 1u);
    runFilterGrad(smallL1, small, std::nullopt);
}

// Convolution kernels read NC1HWC0 / FRACTAL_Z operands (CANN inserts the TransData before them):
// none of their GM→L1 loads is an ND2NZ conversion, unlike a MatMul's ND operands.
TEST(CubeConvLoads, ConvolutionOperandsReachL1WithoutNd2Nz) {
    const auto chip = ascend910B1();
    CubeOpHarness h(chip, 1 << 20);  // only lowering
    const ConvShape s{4, 16, 20, 20, 32, 3, 3, 1, 1, 1, 1, 1, 1};
    TensorInfo x, dy, dw;
    auto filterGrad = filterGradOp(h, s, x, dy, dw);
    auto conv = makeOp("Conv2D", {x, h.tensor("w", {s.co, s.c, s.kh, s.kw}, DataType::Fp16)}, {dy});
    conv.attrs = filterGrad.attrs;
    conv.attrs.erase("filter_size");
    for (const OpInstance& op : {filterGrad, conv}) {
        std::uint64_t loads = 0;
        for (const auto& kernel : h.lower(op)) {
            if (kernel.type != TaskType::AiCore) continue;
            for (const auto& i : everyBlockProgram(kernel)) {
                if (i.opcode != Opcode::DataMove) continue;
                const auto& m = std::get<DataMove>(i.operands);
                if (m.src != MemSpace::GM || m.dst != MemSpace::L1) continue;
                EXPECT_EQ(m.conversion, LayoutConversion::None) << op.type;
                ++loads;
            }
        }
        EXPECT_GT(loads, 0u) << op.type;
    }
}

}  // namespace
}  // namespace ascendsim::test
