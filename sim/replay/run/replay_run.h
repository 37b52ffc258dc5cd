#pragma once
// The replay itself: the real kernel rows grouped into distinct kernels (type, core type, block
// dims, tensors), each group's real duration the median over its occurrences, each group
// rebuilt as a catalog op and simulated once. A group that cannot be rebuilt or simulated keeps
// its reason; nothing is dropped.
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "models/chip/chip_config.h"
#include "sim/replay/run/code_residency.h"
#include "sim/replay/run/kernel_replay.h"
#include "sim/replay/run/l2_timeline.h"
#include "sim/replay/input/real_profile.h"
#include "sim/replay/report/replay_statistics.h"

namespace ascendsim {

// The kernel that last wrote a held input, and which of its outputs the input is (l2_timeline.h
// TensorWriter, with the row's kernel itself).
struct ResidentWriter {
    RealKernel kernel;
    std::size_t output = 0;
};

struct ReplayedKernel {
    RealKernel sample;          // the first occurrence (name, type, tensors, block dims)
    std::string family;
    std::size_t occurrences = 0;
    double realUs = 0.0;        // median over occurrences
    double realTotalUs = 0.0;   // sum over occurrences
    std::map<std::string, double> realPipes;  // median per pipe ratio column
    std::optional<SimulatedKernel> simulated;
    std::vector<std::size_t> residentInputs;  // --l2 producer / timeline: inputs held in L2 at start
    std::vector<std::size_t> residentOutputs; // --l2 producer / timeline: copy targets still in L2
    // --l2 timeline on a chip whose L2 keeps partial lines (l2.partial_line_fill): per resident
    // input, the kernel whose write it still holds as written (none: a read came after it).
    std::vector<std::optional<ResidentWriter>> residentWriters;
    bool codeResident = false;  // its code was still in the ICaches at launch (code_residency.h)
    bool codeHeldInL2 = true;   // L2 still held its code at launch (l2_timeline.h's codeHeld)
    // --l2 timeline with the timeline's victims: the mean over the group's rows of the share of
    // the lines each brings into L2 whose victim is dirty (l2_timeline.h victimDirtyShare).
    std::optional<double> victimDirtyShare;
    // --l2 timeline with the chip's eager write-back (the default): the mean over the group's rows
    // of the most of those lines whose victim can be dirty (l2_timeline.h dirtyVictimBound).
    std::optional<double> dirtyVictimBound;
    // With the HCCL traffic (distinctKernels hcclTraffic): the HBM windows of the collective
    // transfers the row ran beside, from its start (concurrent_traffic.h, §108).
    std::vector<ConcurrentHbmWindow> concurrentHbm;
    std::string excluded;       // set when the row is no AI core kernel (Level0, DSA task)
    std::string reason;         // why not simulated (empty when simulated)
};

// Per row of profile.kernels, whether L2 held its binary's code at launch: the timeline's LRU walk
// of the launch order with each binary's code image read first (l2_timeline.h, every L2 state:
// the code's L2 state, like its ICache state, is the real launch order's, §93). All true without
// `codeChip`, shapes or a code image size. `l2Bytes` 0: the chip's L2.
std::vector<bool> codeHeldInL2Rows(const RealProfile& profile, std::uint64_t l2Bytes, const ChipConfig* codeChip);

// How the code residency walk hands a launch's blocks to cores under `l2` (code_residency.h): per
// core in turn under the timeline, one cache per core kind otherwise (§84).
CodeWalk codeWalkOf(L2State l2);

// Per row of profile.kernels, the inputs (and copy targets) `l2` holds in L2 at its start:
// none when cold or warm or the profile has no shapes, producer_inputs.h for Producer,
// l2_timeline.h for Timeline.
// `reads`: under the timeline, what the rows' 0-d inputs and unmatched reshapes are (l2_timeline.h
// TimelineReads).
L2Timeline residencyByRow(const RealProfile& profile, L2State l2, std::uint64_t l2Bytes,
                          TimelineReads reads = {});

// Groups the profile's compute kernels by identity, in first-occurrence order. With
// L2State::Producer the identity also holds which inputs a preceding kernel wrote
// (producer_inputs.h): the same kernel after its producer and after an unrelated kernel are two
// groups, each with its own real median.
// L2State::Timeline holds the inputs an LRU walk of the launch order leaves in L2 (l2_timeline.h).
// `l2Bytes`: the chip's L2 capacity, for the producer rule and the timeline; unused when cold.
// With `codeChip` (its ICache and core counts) the identity also holds whether the kernel's code
// was resident at launch (code_residency.h, walked as codeWalkOf(l2)): a kernel's cold and warm
// launches are two groups. Under the timeline, when that chip's L2 keeps partial lines
// (l2.partial_line_fill), it also holds the kernels that last wrote the held inputs: the replay
// preloads each by running its writer (kernel_replay.h), whose stores decide which lines are whole.
// With `walkCodeInL2` it also holds whether L2 still held the kernel's code (codeHeldInL2Rows);
// without, every launch finds its code in L2 (the replay's default, §93). With `timelineVictims`
// under the timeline, each group also holds the mean of its rows' victimDirtyShare (l2_timeline.h).
// With `hcclTraffic` a row that ran beside HCCL transfers (profile.hcclTransfers) is a group of
// its own holding their HBM windows (concurrent_traffic.h, §108). `reads`: residencyByRow's.
std::vector<ReplayedKernel> distinctKernels(const RealProfile& profile, L2State l2 = L2State::Cold,
                                            std::uint64_t l2Bytes = 0, const ChipConfig* codeChip = nullptr,
                                            bool walkCodeInL2 = false, bool timelineVictims = false,
                                            bool hcclTraffic = false, TimelineReads reads = {});

// Called after each group with (done, total).
using ReplayProgress = std::function<void(std::size_t, std::size_t)>;

// Rebuilds and simulates every group; a group that cannot be rebuilt keeps the reason.
void simulateKernels(std::vector<ReplayedKernel>& kernels, const ChipConfig& chip, L2State l2,
                     const ReplayProgress& progress = {});

// The statistics inputs of the simulated groups (all of them, or one family).
std::vector<KernelFidelity> fidelityInputs(const std::vector<ReplayedKernel>& kernels,
                                           const std::string& family = "");

}  // namespace ascendsim
