#pragma once
// Internal to elementwise_program: the dataflow graph and, after layout, where every value lives
// in UB and how the output is cut into units of work. Shared read-only by every block's stream.
#include <cstdint>
#include <string>
#include <vector>

#include "models/kernels/elementwise/elementwise_program.h"
#include "models/kernels/tiling/vector_tiling.h"

namespace ascendsim {

// A UB buffer that may be double-buffered: address of half h = base + h·halfStride.
struct UbSlot {
    std::uint64_t base = 0;
    std::uint64_t halfStride = 0;
    std::uint64_t at(std::uint32_t half) const { return base + half * halfStride; }
};

struct ElementwiseInput {
    ElementwiseProgram::Kind kind = ElementwiseProgram::Kind::Element;
    DataType dtype = DataType::Fp16;
    std::uint64_t gmAddr = 0;
    std::vector<std::int64_t> outerStrides;
    UbSlot loaded;  // where MTE2 puts it (double-buffered, or once for scalars)
};

struct ElementwiseValue {
    ElementwiseProgram::Kind kind = ElementwiseProgram::Kind::Element;
    int input = -1;                 // ≥ 0: loaded input (before a cast, if any)
    bool castFromInput = false;     // the value is `input` cast to the compute type
    float constant = 0.0f;          // Scalar constants (input < 0 and no step)
    bool isConstant = false;
    std::uint32_t lastUse = 0;      // index of the last step (or steps.size() for outputs)
    UbSlot storage;                 // compute-type home (blocks for Scalar)
    std::uint64_t expanded = 0;     // Row values used by Element steps: R blocks
    bool needsExpansion = false;
};

struct ElementwiseStep {
    VectorOp op = VectorOp::Copy;
    std::uint32_t dst = 0, a = 0, b = 0;
    bool binary = false;
    float scalar = 0.0f;
};

struct ElementwiseOutput {
    std::uint32_t value = 0;
    DataType dtype = DataType::Fp16;
    std::uint64_t gmAddr = 0;
    UbSlot buffer;                  // double-buffered staging for MTE3
    bool computedInPlace = false;   // the value's step writes straight into `buffer`
    std::uint64_t rowPitch = 0;     // GM elements between output rows (0 = rowLength: dense)
};

struct ElementwisePlan {
    std::string opName;
    DataType computeType = DataType::Fp16;
    std::vector<std::int64_t> outerDims;
    std::uint64_t rows = 1;
    std::uint64_t rowLength = 1;
    std::vector<ElementwiseInput> inputs;
    std::vector<ElementwiseValue> values;
    std::vector<ElementwiseStep> steps;
    std::vector<ElementwiseOutput> outputs;

    // Layout (filled by lower()).
    // Every output is an input stored as loaded (a copy: TensorMove, Slice, ConcatD): MTE3 drains
    // the input's UB buffer and no vector instruction runs, as the DataCopy-in / DataCopy-out
    // kernels CANN ships do (real profiles show their vec ratio at 0).
    bool movesOnly = false;
    // Tiles take turns on one UB buffer per operand: a tile's load waits for the store of the tile
    // before it (useOneBuffer()).
    bool oneBuffer = false;
    bool chunkMode = false;
    std::uint64_t rowsPerTile = 0;      // row mode
    std::uint64_t paddedRowLength = 0;  // row mode: UB row pitch in elements
    std::uint64_t granule = 256;        // chunk mode unit, elements
    std::uint64_t granulesPerTile = 0;  // chunk mode
    std::uint64_t table = 0;            // block offset table, if any Row/Scalar expansion
    std::uint64_t tableValues = 0;

    std::uint64_t units() const {
        return chunkMode ? rows * ceilDiv(rowLength, granule) : rows;
    }
    std::int64_t rowOffset(std::uint64_t row, const std::vector<std::int64_t>& strides) const;
    // Rows from `row` whose Row inputs stay contiguous in GM (tiles must not cross a break).
    std::uint64_t contiguousRowRun(std::uint64_t row) const;
};

// One block's program over units [range.begin, range.end) of `plan`.
std::unique_ptr<InstructionStream> makeElementwiseStream(std::shared_ptr<const ElementwisePlan> plan,
                                                         UnitRange range);

}  // namespace ascendsim
