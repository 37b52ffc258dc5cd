#pragma once
// Uncontended single-core cost of instructions, from the calibrated tables in ChipConfig
// (hardware.md §1.3, §2.5, §2.6). Shared-resource contention (L2/HBM) is added by
// models/memory; UB bank conflicts by the device's vector pipe.
#include <cstdint>

#include "models/chip/chip_config.h"
#include "models/isa/instruction.h"

namespace ascendsim {

// The burst size of the measured transfer curves: MSKPP's tables index their points by a count of
// 1 KiB bursts (Ascend-mskpp csrc/prof_data/data_adapter.cpp: bytes = numBursts * 1024), so a
// curve's cost already holds the restarts of a move cut into 1 KiB pieces.
inline constexpr std::uint64_t kMeasuredBurstBytes = 1024;

// The bursts after the first of a move that goes burst by burst: its bursts are not whole 32 B
// blocks, so each is padded to a block on its UB side (Ascend C DataCopyPad), and they are not one
// run (a gap on either side). 0 for a move of whole-block bursts, which streams them as one
// transfer (docs/fidelity.md §74). Such a move's bursts also reach L2 as writes of their own (§94).
std::uint64_t paddedBursts(const DataMove& move);

class TransferTiming {
public:
    explicit TransferTiming(const ChipConfig& chip);
    explicit TransferTiming(const ChipConfig&& chip) = delete;  // chip_ is a reference
    // Cycles one data move occupies its pipe on an otherwise idle core, layout conversion included.
    // Throws std::invalid_argument for a path the chip does not have.
    std::uint64_t cycles(const DataMove& move) const;
    std::uint64_t cycles(const Img2ColLoad& load) const;
    // Cycles after a move's data are posted until its write is acknowledged (pipes.mte3_store_ack_cycles):
    // the chip's for a UB -> GM store, 0 for every other move.
    std::uint64_t writeAckCycles(const DataMove& move) const;

private:
    // The curve cost, layout conversion included, without the element-type conversion.
    std::uint64_t layoutCycles(const PathTiming& path, const DataMove& move) const;
    // The chip's timing of a path; throws std::invalid_argument for a path the chip does not have.
    const PathTiming& timingOf(MemSpace src, MemSpace dst) const;

    const ChipConfig& chip_;
    // Index into chip_.paths by [src × kMemSpaceCount + dst], -1 where the chip has no such path:
    // every data move asks for its path, and a scan of the list cost the main job 0.6 % of its
    // host instructions (docs/performance.md "Session 33").
    std::array<std::int8_t, kMemSpaceCount * kMemSpaceCount> pathIndex_{};
};

class CubeTiming {
public:
    explicit CubeTiming(const ChipConfig& chip);
    explicit CubeTiming(const ChipConfig&& chip) = delete;  // chip_ is a reference
    // Fractals (16×16×16 fp16, 16×32×16 int8) the instruction computes, after rounding m/k/n up.
    std::uint64_t fractals(const Mmad& mmad) const;
    std::uint64_t cycles(const Mmad& mmad) const;

private:
    const ChipConfig& chip_;
};

class VectorTimingModel {
public:
    explicit VectorTimingModel(const ChipConfig& chip);
    explicit VectorTimingModel(const ChipConfig&& chip) = delete;  // chip_ is a reference
    // Start-up plus repeats × cycles per repeat of the instruction's class, before bank conflicts.
    std::uint64_t cycles(const VectorInstr& instr) const;

private:
    const ChipConfig& chip_;
};

}  // namespace ascendsim
