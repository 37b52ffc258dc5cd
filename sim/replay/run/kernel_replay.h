#pragma once
// Simulates one catalog op the way the real kernel ran: lowered for the chip with the real block
// dim forced, its tensors at distinct GM addresses, on a fresh device. The L2 state is the
// replay's one free choice (docs/fidelity.md "Method"):
//   cold — a fresh device per kernel: every byte comes from HBM once (the default: a real
//          training step runs so many bytes between two launches of the same kernel that its
//          inputs are rarely still in L2, and it is the reproducible choice);
//   warm — the launch runs twice back to back and the second is measured: inputs that fit in
//          L2 hit (an upper bound on what a producer kernel's output could leave behind);
//   producer — the inputs a kernel just before wrote in the real stream (producer_inputs.h) are
//          written first, by a write-only MemSet of each onto the tensor's address, and the
//          launch after them is measured: those lines are in L2, dirty or clean as the chip's
//          write-back leaves them, in LRU order up to its capacity; every other input is cold;
//   timeline — the same preload, of the inputs an LRU walk of the real launch order says L2
//          still holds, whether earlier kernels wrote or only read them (l2_timeline.h).
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "models/chip/chip_config.h"
#include "models/memory/concurrent_hbm_traffic.h"
#include "models/kernels/op_instance.h"

namespace ascendsim {

enum class L2State : std::uint8_t { Cold, Warm, Producer, Timeline };
bool parseL2State(std::string_view text, L2State& out);  // "cold", "warm", "producer", "timeline"
// Producer and Timeline: the replay preloads the inputs (and copy targets) it found resident.
bool preloadsResidents(L2State state);
std::string_view l2StateName(L2State state);

struct SimulatedKernel {
    double durationUs = 0.0;                   // first block start to last block end
    std::map<std::string, double> pipeRatios;  // "aic_mac_ratio" → value, for the sides that ran
};

// The kernel that last wrote a held input, rebuilt as an op, and whether it wrote in place.
struct ResidentWriterOp {
    OpInstance op;
    bool inPlace = false;
};

// Where the launch's tensors are and what of them L2 holds at its start.
struct ReplayPlacement {
    // L2State::Producer / Timeline: the sizes of the inputs to preload; each preloads the first not yet
    // chosen input of the op of that size, in order (the last is most recently used).
    std::vector<std::uint64_t> residentBytes;
    // Aligned with residentBytes (or empty): the writer whose stores the input still holds as
    // they left it (l2.partial_line_fill). It is run before the launch, its output of the input's
    // size on the input's address, instead of the write-only MemSet; none: the MemSet.
    std::vector<std::optional<ResidentWriterOp>> residentWriters;
    // The same for outputs that overwrite a tensor still in L2 (a copy into an existing tensor):
    // preloaded before the inputs, so the launch's stores hit.
    std::vector<std::uint64_t> residentOutputBytes;
    // An in-place kernel (inplace_kernels.h): output 0 is written over the first input of its
    // size, so its stores hit the lines that input's reads (or its producer) brought into L2.
    bool inPlace = false;
    // The kernel's code is in every core's ICache at launch (the real timeline ran its binary
    // recently enough, code_residency.h); otherwise its blocks fetch it cold.
    bool codeResident = false;
    // L2 holds the kernel's code at launch (l2_timeline.h's codeHeld); otherwise a block that
    // misses it in the ICache fills it from HBM first (KernelTask::codeHeldInL2).
    bool codeHeldInL2 = true;
    // L2State::Timeline: the share of the lines the launch brings into L2 whose victim the
    // timeline says is dirty (l2_timeline.h victimDirtyShare); the device's L2 charges its misses
    // that (SharedMemorySystem::setBackgroundVictims). None: the chip's write-back policy alone.
    std::optional<double> victimDirtyShare;
    // L2State::Timeline under the chip's eager write-back: the most of the lines the launch brings
    // into L2 whose victims can be dirty (l2_timeline.h dirtyVictimBound); a write into a free way
    // of the device's L2 pays that share of a line of HBM write (SharedMemorySystem::
    // setFreeWayWriteBackShare). None: every write that dirties a line pays a whole one.
    std::optional<double> dirtyVictimBound;
    // HBM traffic beside the launch (concurrent_traffic.h, §108): windows from the measured
    // launch's start. The device's memory serves them as a background (SharedMemorySystem::
    // setConcurrentTraffic); the launch is simulated once to find where it starts after its
    // preload, then again with the windows there.
    std::vector<ConcurrentHbmWindow> concurrentHbm;
};

// Throws UnreplayableKernel with the lowering's message when the op cannot be lowered.
SimulatedKernel simulateReplayOp(OpInstance op, const ChipConfig& chip, L2State l2,
                                 const ReplayPlacement& placement = {});

}  // namespace ascendsim
