#pragma once
// The instruction set the simulated pipes execute (DESIGN.md decision 2). An instruction names the
// pipe whose in-order queue executes it; cross-pipe ordering exists only through flags and barriers.
//
// Functional layout convention (documented in docs/architecture.md): buffers in L1/L0A/L0B/L0C/UB
// hold tiles as dense row-major element arrays at the given byte address. Fractal (NZ/ZZ/ZN)
// layouts are not materialised byte for byte; their cost is charged by the timing model through
// `LayoutConversion` and the fractal rounding of mmad shapes.
#include <cstdint>
#include <variant>

#include "models/isa/data_type.h"
#include "models/isa/gm_layout.h"
#include "models/isa/gm_nc1hwc0.h"
#include "models/isa/pipe.h"

namespace ascendsim {

enum class LayoutConversion : std::uint8_t { None, Nd2Nz, Nz2Nd };

// Data move along one path (hardware.md §2.3) as `burstCount` rows of `burstBytes`, like Ascend C
// DataCopy: row r reads src + r*(burstBytes+srcGapBytes), writes dst + r*(burstBytes+dstGapBytes).
// FixPipe moves (L0C→GM/L1) may convert `srcType` (fp32/int32 accumulators) to `dstType` and apply
// ReLU on the fly. `atomicAdd` makes a GM write accumulate (UB→GM, L0C→GM).
// When srcType != dstType the move converts element by element: `burstBytes` and `srcGapBytes`
// count source bytes, `dstGapBytes` destination bytes (a burst writes burstBytes/bytesOf(srcType)
// elements of dstType).
// Indexed source (additive, for GatherV2-style embedding lookups): when `indexBytes` is 4 or 8 the
// move reads a signed int32/int64 index k from UB at `indexAddr` and uses srcAddr + k ×
// `indexedRowBytes` as its source address (what an Ascend C kernel does by reading the index with
// the scalar unit and issuing DataCopy from the computed GM address). `indexedRows` > 0 bounds k
// to [0, indexedRows) (functional models reject others). Timing models have no data: they use a
// deterministic pseudo-random row in [0, indexedRows) instead (an approximation of the address
// stream; bytes and path are exact).
// `indexDestination` applies the index to dstAddr instead (the scatter of ScatterUpdate-style
// row writes); timing models then write a pseudo-random row of the table, as a gather reads one.
// `gmNz` (additive, timing only): the GM tensor the move reads or writes is stored FRACTAL_NZ
// (gm_layout.h). The move still names its logical row-major rows, which functional models use;
// timing models charge the GM bursts those rows occupy in the fractal layout. Its rows must be
// consecutive logical rows (stride = `gmNz.rowBytes`).
// `gm5hd` (additive, timing only): likewise for a GM tensor stored NC1HWC0 (gm_nc1hwc0.h): the move
// names logical NCHW channel bursts, timing models charge the C1 blocks' runs.
// `gathersC0Vectors` (additive, timing only): an L1 → L0 load that reads its data as 32 B C0
// vectors each from its own L1 line, as a Load3Dv2 with transpose does (CANN's fp32 input-gradient
// weights, docs/fidelity.md §77): timing models charge it the Load3D rate of one C0 vector per
// line (TransferTiming); functional models move the same bytes as without it.
struct DataMove {
    MemSpace src = MemSpace::GM;
    MemSpace dst = MemSpace::L1;
    std::uint64_t srcAddr = 0;
    std::uint64_t dstAddr = 0;
    std::uint32_t burstCount = 1;
    std::uint32_t burstBytes = 0;
    std::uint32_t srcGapBytes = 0;
    std::uint32_t dstGapBytes = 0;
    LayoutConversion conversion = LayoutConversion::None;
    DataType srcType = DataType::Fp16;
    DataType dstType = DataType::Fp16;
    bool reluOnTheFly = false;
    bool atomicAdd = false;
    std::uint64_t indexAddr = 0;        // UB byte address of the index (indexed source only)
    std::uint8_t indexBytes = 0;        // 0 = not indexed; 4 = int32, 8 = int64
    std::uint64_t indexedRowBytes = 0;  // source stride per index unit
    std::uint64_t indexedRows = 0;      // rows the index may select (0 = unchecked)
    bool indexDestination = false;      // the index moves dstAddr, not srcAddr
    GmFractalNz gmNz{};                 // GM side stored FRACTAL_NZ (rows 0 = row-major)
    GmNc1hwc0 gm5hd{};                  // GM side stored NC1HWC0 (channels 0 = NCHW)
    bool gathersC0Vectors = false;      // L1 → L0: one C0 vector read per L1 line (timing only)
    // GM → L1 (timing only): how many cores take turns on this move's L2 lines in the kernel's
    // schedule, its own included (matmul_cann_round_readers.h, shared_line_requests.h); 0 = not
    // known, no wait.
    float concurrentLineReaders = 0.0f;
    // GM → L1 (timing only): every block of the launch reads this move's lines at once, in the same
    // order (the forward convolution's weight chunks); the move costs at least its bytes at
    // pipes.mte2_shared_line_read_bytes_per_cycle (shared_line_requests.h).
    bool linesReadByEveryBlock = false;
    // L0C → GM (timing only): FixPipe's channel split, the fp32 output written as C0 = 8 channel
    // vectors (32 B) of each 16-channel fractal row, one vector a cycle (TransferTiming).
    bool fixpipeChannelSplit = false;

    bool indexed() const { return indexBytes != 0; }
    std::uint64_t totalBytes() const { return std::uint64_t{burstCount} * burstBytes; }
};

// Image-to-column load (Load3D, L1→L0A, MTE1) for convolutions: L1 holds an input slab of
// `channels` × `inH` × `inW` (row-major, channel-last: [h][w][c]); the instruction writes the
// [m × k] im2col matrix rows for output positions [firstOutPos, firstOutPos+m) and reduction
// indices [firstK, firstK+k) where k enumerates (kh, kw, c) with c fastest.
// Additive extensions (cube engineer, for NCHW tensors and convolution gradients):
// - `channelGroup` C0 > 0: L1 holds [channels/C0][inH][inW][C0] (the 5HD slab; C0 = 1 is a plain
//   channel-major [c][h][w] slab) and k enumerates (c1, kh, kw, c0). 0 = the [h][w][c] slab above.
// - `dst` may be L0B (Load3Dv2 feeds either side of the cube); the [m × k] rows land there.
// - Output position (oh, ow) reads slab row (oh−outRowOffset)·strideH − padTop + kh·dilationH
//   (columns likewise); rows/columns outside the slab read zero (padding).
// - `inputDilationH/W` > 1 reads a zero-stuffed input (a virtual row v is slab row v/d when
//   v % d == 0, else zero): the dilated dy of a transposed convolution.
// - `rotateKernel` reads kernel tap (kh, kw) as (kernelH−1−kh, kernelW−1−kw) (180° rotation).
struct Img2ColLoad {
    std::uint64_t srcAddr = 0;  // L1
    std::uint64_t dstAddr = 0;  // L0A (or L0B, see `dst`)
    MemSpace dst = MemSpace::L0A;
    std::uint16_t channelGroup = 0;
    std::uint16_t inputDilationH = 1, inputDilationW = 1;
    bool rotateKernel = false;
    DataType dtype = DataType::Fp16;
    std::uint16_t channels = 0, inH = 0, inW = 0;
    std::uint16_t kernelH = 1, kernelW = 1, strideH = 1, strideW = 1;
    std::uint16_t padTop = 0, padLeft = 0, dilationH = 1, dilationW = 1;
    std::uint16_t outW = 0;  // output width, to map an output position to (oh, ow)
    std::int32_t outRowOffset = 0;  // output row index of slab row 0 (for row-tiled slabs)
    std::uint32_t firstOutPos = 0, m = 0;
    std::uint32_t firstK = 0, k = 0;
    // The L0 buffer the chip's Load3D writes, whose write rate bounds the load (TransferTiming): L0B
    // for the filter gradient's x, as `dst`; L0A for the forward and input-gradient convolutions,
    // whose model holds the product transposed (Co x positions: img2col in L0B) where the chip's
    // Load3D writes the image into L0A (docs/fidelity.md §115).
    MemSpace chipDst = MemSpace::L0A;

    std::uint64_t totalBytes() const { return std::uint64_t{m} * k * bytesOf(dtype); }
};

// Cube matrix multiply-accumulate: L0C[m×n] (+)= L0A[m×k] · L0B[k×n]. Accumulates into fp32 for
// float inputs, int32 for int8. `initialize` starts a fresh accumulation (bias from BT if set).
struct Mmad {
    std::uint64_t l0aAddr = 0, l0bAddr = 0, l0cAddr = 0;
    std::uint16_t m = 16, k = 16, n = 16;
    DataType dtype = DataType::Fp16;
    bool initialize = true;
    bool transposeB = false;  // L0B holds n×k
    bool transposeA = false;  // L0A holds k×m (Load2D transpose on the way in; additive)
    bool addBiasFromTable = false;
    std::uint64_t biasAddr = 0;
};

enum class VectorOp : std::uint8_t {
    // binary elementwise
    Add, Sub, Mul, Div, Max, Min, And, Or,
    // with a scalar operand
    Adds, Muls, Maxs, Mins, LeakyRelu,
    // unary
    Relu, Abs, Exp, Ln, Sqrt, Rsqrt, Reciprocal, Copy, Duplicate, Cast,
    // fused multiply-add: dst = src0 * src1 + dst
    MulAdd,
    // per-repeat reductions to one element
    ReduceSum, ReduceMax, ReduceMin,
    // gather / sort
    Gather, Sort,
    // compare and select (mask-free form: dst = src0 > src1 ? src0 : src1 written as 1/0)
    CompareGt, Select,
    // per-block reductions (vcgadd, vcgmax): every 32 B block of a repeat to one element; repeat r
    // writes its (up to 8) results contiguously at dst + 8·r elements
    BlockReduceSum, BlockReduceMax,
    // block broadcast (vbrcb): repeat r reads the 8 elements src0[8·r .. 8·r+7] and fills block i of
    // the repeat's destination (dst strides as usual) with element i; the mask is not used
    BlockBroadcast,
    // Transpose of 512 B per repeat (vnchwconv, Ascend C TransDataTo5HD). The hardware takes 16
    // free source and 16 destination addresses from its VA registers; the model lists each as two
    // groups of 8 evenly spaced blocks: block 8·h + i (h < 2, i < 8) of repeat r at
    // base + (r·repeatStride + i·blockStride + h·halfStride) · 32 B, halfStride 0 meaning
    // 8·blockStride (16 blocks a block stride apart).
    // 16-bit elements: 16 × 16, dst block j element i = src block i element j.
    // 32-bit elements (the 220x parts, TransDataTo5HD "float/int32_t/uint32_t"): 8 loops, loop j
    // takes element j of the 16 source blocks and writes them as 2 destination blocks, src blocks
    // 0–7 to dst block 2·j and 8–15 to dst block 2·j + 1; dst block 2·j + h is listed as
    // dst + (r·dstRepeatStride + j·dstBlockStride + h·dstHalfStride) · 32 B (pairs), halfStride 0
    // again meaning 8·blockStride. The mask is not used.
    NchwConv,
    // The 220x's region sort (vbitsort, Ascend C Sort32): each repeat orders 32 scores with their
    // indices into 32 records of 8 B, a 256 B repeat of output. Functionally the Sort above; its
    // cost is its own class (VectorClass::BitSort), as it is a different unit's work than the
    // merge (vmrgsort4) the Sort class times (docs/fidelity.md §109).
    BitSort,
};

enum class VectorClass : std::uint8_t {
    Unary, Binary, Transcendental, FusedMultiplyAdd, Reduction, Gather, Sort, Conversion, Transpose, BitSort
};
inline constexpr std::size_t kVectorClassCount = 10;
inline constexpr std::uint32_t kNchwConvBlocks = 16;  // vnchwconv: 16 blocks in, 16 out per repeat

VectorClass vectorClassOf(VectorOp op);
const char* vectorOpName(VectorOp op);
inline constexpr std::uint32_t kVectorBlocksPerRepeat = 8;  // 256 B repeat = 8 blocks of 32 B (§2.6)
bool isBlockReduction(VectorOp op);

// Vector instruction on UB (hardware.md §2.6): `repeats` iterations, each over up to 256 bytes
// (8 blocks of 32 B) of `dtype` elements, `mask` active elements per repeat (contiguous from 0).
// Strides are in 32-byte blocks. Reductions write one element per repeat contiguously at dst.
// Gather reads src1 as uint32 byte offsets into src0's buffer.
struct VectorInstr {
    VectorOp op = VectorOp::Add;
    DataType dtype = DataType::Fp16;
    DataType srcType = DataType::Fp16;  // for Cast: the source type
    std::uint64_t dst = 0, src0 = 0, src1 = 0;  // UB byte addresses
    std::uint16_t repeats = 1;
    std::uint16_t mask = 128;  // active elements per repeat
    std::uint8_t dstBlockStride = 1, src0BlockStride = 1, src1BlockStride = 1;
    std::uint16_t dstRepeatStride = 8, src0RepeatStride = 8, src1RepeatStride = 8;
    // vnchwconv only: the second group of its block addresses, in blocks (see VectorOp::NchwConv).
    std::uint16_t dstHalfStride = 0, src0HalfStride = 0;
    float scalar = 0.0f;
    // Scalar-operand forms (Adds, Muls, Maxs, Mins): when set, the scalar is the `dtype` element at
    // this UB byte address — a tensor's value the scalar unit reads into the instruction's scalar
    // register as it issues (Ascend C passes LocalTensor::GetValue) — instead of the immediate.
    static constexpr std::uint64_t kImmediateScalar = ~std::uint64_t{0};
    std::uint64_t scalarUbAddr = kImmediateScalar;
};

// The class whose §2.6 per-repeat cost an instruction pays. It is vectorClassOf(op) except for the
// block reductions: vcgadd/vcgmax run at the unary rate on fp32 and at the reduction rate on
// 16-bit types (hardware.md §2.6 [S MSKPP]: "vcgadd/vcgmax (fp32)" in the unary row, "vcgmax
// (fp16)" in the reduction row; vcgadd fp16 is not measured, assumed like vcgmax fp16).
VectorClass vectorCostClassOf(const VectorInstr& v);

// vnchwconv's block `block` (0–15) of repeat `repeat`, in 32 B blocks from the operand's base
// (VectorOp::NchwConv): the source's, or with `destination` the destination's listing.
std::uint64_t nchwConvBlockOffset(const VectorInstr& v, bool destination, std::uint32_t block, std::uint32_t repeat);

// Work the scalar unit does itself (address arithmetic, loop control, DCache loads/stores).
// Optional memory operand: when bytesRead or bytesWritten is non-zero, the loads/stores access
// `memory` (e.g. UB: gather/scatter indices an Ascend C kernel reads with GetValue) and the PMU
// counts them as that memory's scalar traffic (ub_read/write_scalar). hardware.md gives scalar
// ld/st no latency of their own: they are PIPE_S work, so their time is part of `cycles`.
struct ScalarWork {
    std::uint32_t cycles = 1;
    std::uint16_t loads = 0;
    std::uint16_t stores = 0;
    MemSpace memory = MemSpace::UB;
    std::uint32_t bytesRead = 0;
    std::uint32_t bytesWritten = 0;
};

// SetFlag executes in `src` (after its earlier work completes); WaitFlag executes in `dst`.
struct Flag {
    Pipe src = Pipe::Mte2;
    Pipe dst = Pipe::Cube;
    std::uint8_t eventId = 0;
    // A FixPipe wait for the cube's results is the unit-flag handshake of a store already issued,
    // counted FIX busy (ai_core_execute.cpp); false where the kernel syncs M -> FIX with a plain
    // event and no unit flag (CANN's arch22 convolution-gradient kernels, docs/fidelity.md §115).
    bool unitFlag = true;
};

struct Barrier {
    Pipe pipe = Pipe::All;
};

// Cross-core counting semaphores on 220x (hardware.md §2.4). Mode 2 = AIC ↔ its AIVs.
struct CrossCoreFlag {
    std::uint8_t flagId = 0;
    std::uint8_t mode = 2;
    // A wait whose scalar unit spins reading a message queue in GM instead of blocking on the
    // hardware flag: the AIC of an Ascend C MIX kernel whose AIVs call matmul through KFC runs
    // KfcServer::Run, a loop of RcvMessage polls, on the 220x (docs/fidelity.md §45). The waiting
    // time is scalar busy.
    bool polled = false;
};

enum class Opcode : std::uint8_t {
    DataMove, Img2Col, Mmad, Vector, Scalar, SetFlag, WaitFlag, Barrier, CrossCoreSet, CrossCoreWait
};

struct Instruction {
    Opcode opcode = Opcode::Scalar;
    Pipe pipe = Pipe::Scalar;  // the queue that executes it
    std::variant<ScalarWork, DataMove, Img2ColLoad, Mmad, VectorInstr, Flag, Barrier, CrossCoreFlag>
        operands;

    static Instruction move(const DataMove& m);
    static Instruction img2col(const Img2ColLoad& l);
    static Instruction mmad(const Mmad& m);
    static Instruction vector(const VectorInstr& v);
    static Instruction scalar(std::uint32_t cycles, std::uint16_t loads = 0, std::uint16_t stores = 0);
    static Instruction scalar(const ScalarWork& work);
    static Instruction setFlag(Pipe src, Pipe dst, std::uint8_t eventId);
    static Instruction waitFlag(Pipe src, Pipe dst, std::uint8_t eventId);
    static Instruction barrier(Pipe pipe);
    static Instruction crossCoreSet(std::uint8_t flagId, std::uint8_t mode, Pipe executingPipe);
    static Instruction crossCoreWait(std::uint8_t flagId, std::uint8_t mode, bool polled = false);
};

}  // namespace ascendsim
