#pragma once
// Shared helpers of the vector and AI CPU op models: where a vector kernel runs (AIV on split
// chips, the coupled AI core on 910A/310P), how many blocks it uses, UB allocation, and emission
// of vector instructions over element ranges within the 255-repeat / mask limits (hardware.md
// §2.2, §2.6).
#include <cstdint>
#include <string>
#include <vector>

#include "models/chip/chip_config.h"
#include "models/isa/instruction.h"
#include "models/kernels/op_instance.h"
#include "models/kernels/tiling/tiling_arithmetic.h"
#include "models/task/kernel_task.h"

namespace ascendsim {

inline constexpr std::uint64_t kUbBlockBytes = 32;     // hardware.md §2.3: UB 32 B alignment
inline constexpr std::uint64_t kVectorRepeatBytes = 256;  // hardware.md §2.6: 8 blocks per repeat
inline constexpr std::uint32_t kMaxVectorRepeats = 255;   // hardware.md §2.2: repeat field is 8 bits
// Repeat strides are 8-bit fields in 32 B blocks (Ascend C BinaryRepeatParams / UnaryRepeatParams).
inline constexpr std::uint64_t kMaxRepeatStrideBlocks = 255;
inline constexpr std::uint32_t kMaxBlockDim = 65535;      // CANN's blockDim limit (uint16 field)
// Scalar cycles an Ascend C Process() loop spends per tile on address arithmetic, loop control
// and queue bookkeeping (assumed: a few tens of scalar instructions at 1 cycle each).
inline constexpr std::uint32_t kScalarCyclesPerTile = 24;
// Below this much data per block a launch on another core costs more than it saves (assumed,
// in the spirit of CANN's elementwise tilings that keep several KiB per core).
inline constexpr std::uint64_t kMinBytesPerBlock = 8 * 1024;

struct VectorPlacement {
    TaskType taskType = TaskType::AiVectorCore;
    CoreKind coreKind = CoreKind::Vector;
    std::uint32_t coreCount = 1;  // cores of that kind: the default block_dim ceiling
    std::uint64_t ubBytes = 0;
};

// AI_VECTOR_CORE on AIV for split chips, AI_CORE on coupled chips (hardware.md §2.1).
VectorPlacement vectorPlacement(const ChipConfig& chip);

// The block_dim of a vector kernel: op.blockDim if given (1..65535, else LoweringError), else
// enough blocks to give each at least kMinBytesPerBlock, at most `maxUsefulBlocks` (the number of
// tiles / units of work) and at most the core count.
std::uint32_t chooseVectorBlockDim(const OpInstance& op, const VectorPlacement& placement,
                                   std::uint64_t workBytes, std::uint64_t maxUsefulBlocks);

// Block `blockIdx`'s share [begin, end) of `units` split as evenly as possible.
struct UnitRange {
    std::uint64_t begin = 0;
    std::uint64_t end = 0;
    std::uint64_t size() const { return end - begin; }
};
UnitRange blockShare(std::uint64_t units, std::uint32_t blockDim, std::uint32_t blockIdx);
// CANN's block-factor split (the DSL and TIK host tilings' block_factor): block b takes `factor`
// consecutive units from b × factor on, the last one what is left, a block past the end none.
UnitRange blockFactorShare(std::uint64_t units, std::uint64_t factor, std::uint32_t blockIdx);

std::uint64_t alignUp(std::uint64_t value, std::uint64_t alignment);
// Elements of `dtype` in one 32 B block / one 256 B repeat.
std::uint32_t elementsPerBlock(DataType dtype);
std::uint32_t elementsPerRepeat(DataType dtype);

// Bump allocator over UB with 32 B alignment; throws LoweringError naming the op when full.
class UbAllocator {
public:
    UbAllocator(std::uint64_t capacityBytes, std::string opName)
        : capacity_(capacityBytes), opName_(std::move(opName)) {}
    std::uint64_t allocate(std::uint64_t bytes, const char* purpose);
    std::uint64_t usedBytes() const { return next_; }
    std::uint64_t freeBytes() const { return capacity_ - next_; }

private:
    std::uint64_t capacity_;
    std::string opName_;
    std::uint64_t next_ = 0;
};

// Operands of a vector instruction over a contiguous element range. A "block" operand is one
// 32 B block read again for every block of every repeat (block and repeat stride 0): the
// broadcast of one value prepared by emitExpandToBlocks.
struct VectorRange {
    std::uint64_t dst = 0, src0 = 0, src1 = 0;
    bool src0IsBlock = false;
    bool src1IsBlock = false;
    // Scalar-operand forms: the UB address of the scalar (VectorInstr::scalarUbAddr), or the immediate.
    std::uint64_t scalarUbAddr = VectorInstr::kImmediateScalar;
};

// Emits `op` over `count` contiguous elements as full repeats (≤255 per instruction) plus one
// masked tail repeat. Cast reads `srcType` elements from src0; Gather reads uint32 offsets from
// src1. Reductions are not range ops (see emitReduceAll).
void emitVectorRange(std::vector<Instruction>& out, VectorOp op, DataType dtype, const VectorRange& r,
                     std::uint64_t count, float scalar = 0.0f, DataType srcType = DataType::Fp16);

// Reduces `count` contiguous elements at `src` to one element at `dst` (ReduceSum/Max/Min),
// using `scratch` (reduceRowsScratchBytes(dtype, 1, count)) for partials.
void emitReduceAll(std::vector<Instruction>& out, VectorOp op, DataType dtype, std::uint64_t src,
                   std::uint64_t count, std::uint64_t scratch, std::uint64_t dst);

// Reduces each of `rows` rows of `length` elements (rows `rowStrideBytes` apart, a multiple of
// 32) to one element; results land contiguously at dst. `scratch` (reduceRowsScratchBytes) holds
// per-row partials when a row is longer than a repeat.
void emitReduceRows(std::vector<Instruction>& out, VectorOp op, DataType dtype, std::uint64_t src,
                    std::uint32_t rows, std::uint64_t length, std::uint64_t rowStrideBytes,
                    std::uint64_t scratch, std::uint64_t dst);
std::uint64_t reduceRowsScratchBytes(DataType dtype, std::uint32_t rows, std::uint64_t length);

// Writes the int32 table T[i] = floor(i / E) · bytesOf(dtype), E = elementsPerBlock(dtype), for
// i < entries: the Gather offsets that broadcast value k into block k. Built by doubling (one
// Duplicate and log2(entries/E) Adds), once per block program.
void emitBlockOffsetTable(std::vector<Instruction>& out, DataType dtype, std::uint64_t table,
                          std::uint64_t entries);
std::uint64_t blockOffsetTableBytes(DataType dtype, std::uint64_t values);

// Broadcasts `count` contiguous values at `src` into `count` 32 B blocks at `dst` (block k holds
// value k E times), by a Gather through the table above.
void emitExpandToBlocks(std::vector<Instruction>& out, DataType dtype, std::uint64_t dst, std::uint64_t src,
                        std::uint64_t count, std::uint64_t table);

// UB↔GM moves of `rows` rows of `rowBytes` bytes, UB rows `ubRowStrideBytes` apart (≥ rowBytes),
// GM rows contiguous (one dense burst when the UB rows are contiguous too).
Instruction moveRowsToUb(std::uint64_t gmAddr, std::uint64_t ubAddr, std::uint32_t rows,
                         std::uint64_t rowBytes, std::uint64_t ubRowStrideBytes);
// GM→UB of `rows` rows of `rowBytes` that start `gmRowStrideBytes` apart in GM (> rowBytes: the
// rows of a slice) into UB rows `ubRowStrideBytes` apart: one DataMove with source gaps.
Instruction moveStridedRowsToUb(std::uint64_t gmAddr, std::uint64_t ubAddr, std::uint32_t rows, std::uint64_t rowBytes,
                                std::uint64_t gmRowStrideBytes, std::uint64_t ubRowStrideBytes);
Instruction moveRowsToGm(std::uint64_t ubAddr, std::uint64_t gmAddr, std::uint32_t rows,
                         std::uint64_t rowBytes, std::uint64_t ubRowStrideBytes);

}  // namespace ascendsim
