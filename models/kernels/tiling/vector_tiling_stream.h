#pragma once
// The program skeleton of a double-buffered vector kernel, generated one tile at a time: what
// Ascend C's CopyIn / Compute / CopyOut with TQue depth 2 compiles to (hardware.md §2.3, §2.4).
//
// Tile t uses ping-pong half p = t % 2 and event id p:
//   S: per-tile scalar work
//   MTE2: [wait V→MTE2 p if t ≥ 2] loads GM→UB          set MTE2→V p
//   V:    wait MTE2→V p, [wait MTE3→V p if t ≥ 2] compute, set V→MTE2 p, set V→MTE3 p
//   MTE3: wait V→MTE3 p, stores UB→GM,                     set MTE3→V p
// (with one buffer, TileSource::buffers() = 1: p = 0 and the waits apply from t ≥ 1), so MTE2
// refills a half only after V has read it and V rewrites an output half only after MTE3
// has drained it, while the other half's load overlaps this half's compute. A source that only
// moves data (TileSource::movesOnly) has no V step:
//   MTE2: [wait MTE3→MTE2 p if t ≥ 2] loads GM→UB   set MTE2→MTE3 p
//   MTE3: wait MTE2→MTE3 p, stores UB→GM             set MTE3→MTE2 p Setup (constants
// loaded and tables built once per block) and finish (results accumulated over all tiles) use
// event id 2. Every flag set is waited for before the program ends.
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include "models/isa/instruction_stream.h"
#include "models/kernels/kernel_registry.h"
#include "models/kernels/tiling/vector_tiling.h"
#include "models/task/kernel_task.h"

namespace ascendsim {

// Instructions of one phase of a tile, by pipe.
struct TileCode {
    std::vector<Instruction> load;     // MTE2, GM→UB
    std::vector<Instruction> compute;  // V
    std::vector<Instruction> store;    // MTE3, UB→GM
    std::uint32_t scalarCycles = 0;    // extra scalar work beyond kScalarCyclesPerTile
    // One-buffer sources (TileSource::buffers() = 1) whose compute first casts its staged inputs
    // to working copies: the index in `compute` past those casts. There the tile frees its input
    // buffers (the next tile's load may start) and claims its output buffers (it waits for the
    // previous tile's store), as Ascend C's FreeTensor after a Cast and AllocTensor of the output
    // queue do. kWholeCompute: the buffers are held for the whole compute.
    static constexpr std::size_t kWholeCompute = static_cast<std::size_t>(-1);
    std::size_t stagedInputsCastAt = kWholeCompute;

    void clear() {
        load.clear();
        compute.clear();
        store.clear();
        scalarCycles = 0;
        stagedInputsCastAt = kWholeCompute;
    }
};

// What one block computes, tile by tile. Implementations are cheap to query repeatedly.
class TileSource {
public:
    virtual ~TileSource() = default;
    virtual std::uint64_t tileCount() const = 0;
    // Tiles only load and store (no compute): MTE3 stores the buffer MTE2 filled, ordered by
    // MTE2→MTE3 / MTE3→MTE2 flags instead of through the vector pipe.
    virtual bool movesOnly() const { return false; }
    // Buffers per queue: 2 (ping-pong, the default) or 1, when the kernel's schedule keeps one
    // buffer and a tile's load waits for the previous tile's compute (no load/compute overlap).
    virtual std::uint32_t buffers() const { return 2; }
    // Once before the first tile (its stores are ignored).
    virtual void setup(TileCode& code) { (void)code; }
    // Tile `index` using ping-pong half `half` (0 or 1; always 0 with one buffer) of every double buffer.
    virtual void tile(std::uint64_t index, std::uint32_t half, TileCode& code) = 0;
    // Once after the last tile (its loads are ignored).
    virtual void finish(TileCode& code) { (void)code; }
};

class DoubleBufferedStream final : public InstructionStream {
public:
    explicit DoubleBufferedStream(std::unique_ptr<TileSource> source) : source_(std::move(source)) {}
    bool next(std::vector<Instruction>& out) override;

private:
    void emitSetup(std::vector<Instruction>& out);
    void emitTile(std::uint64_t index, std::vector<Instruction>& out);
    void emitFinish(std::vector<Instruction>& out);

    enum class Phase { Setup, Tiles, Finish, Done };
    std::unique_ptr<TileSource> source_;
    Phase phase_ = Phase::Setup;
    std::uint64_t nextTile_ = 0;
    TileCode code_;
};

// The program of a vector kernel whose block b runs its share (blockShare) of `units` work units
// as `Tiles`, a TileSource built from the kernel's layout and that share, double-buffered.
template <typename Tiles, typename Layout>
ProgramFactory doubleBufferedBlockShares(std::shared_ptr<const Layout> layout, std::uint64_t units,
                                         std::uint32_t blockDim) {
    return [layout = std::move(layout), units, blockDim](const BlockProgramRequest& request)
               -> std::unique_ptr<InstructionStream> {
        return std::make_unique<DoubleBufferedStream>(
            std::make_unique<Tiles>(layout, blockShare(units, blockDim, request.blockIdx)));
    };
}

// The lowering most vector kernels end with: `units` work units split over the block dim that
// chooseVectorBlockDim picks for `workBytes`, each block running its share as `Tiles`
// double-buffered. `Layout` is deduced from the layout pointer (const or not).
template <typename Tiles, typename Layout>
LoweredKernel tiledVectorKernel(const OpInstance& op, const VectorPlacement& placement,
                                std::shared_ptr<Layout> layout, std::uint64_t workBytes,
                                std::uint64_t units) {
    LoweredKernel kernel;
    kernel.type = placement.taskType;
    kernel.blockDim = chooseVectorBlockDim(op, placement, workBytes, units);
    kernel.program = doubleBufferedBlockShares<Tiles, std::remove_const_t<Layout>>(std::move(layout), units,
                                                                               kernel.blockDim);
    return kernel;
}

}  // namespace ascendsim
