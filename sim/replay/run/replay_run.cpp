#include "sim/replay/run/replay_run.h"

#include <unordered_map>

#include "sim/replay/input/real_tensors.h"
#include "sim/replay/run/code_residency.h"
#include "sim/replay/run/concurrent_traffic.h"
#include "sim/replay/run/inplace_kernels.h"
#include "sim/replay/run/l2_timeline.h"
#include "sim/replay/run/producer_inputs.h"
#include "sim/replay/rules/replay_op_rules.h"

namespace ascendsim {

namespace {

std::string identityOf(const RealKernel& k) {
    return k.type + '|' + k.acceleratorCore + '|' + std::to_string(k.blockDim) + '|' + std::to_string(k.mixBlockDim) +
           '|' + k.inputShapes + '|' + k.inputDtypes + '|' + k.inputFormats + '|' + k.outputShapes + '|' +
           k.outputDtypes + '|' + k.outputFormats + (isInPlaceKernel(k) ? "|in-place" : "") +
           (k.accumulatesAtomically ? "|atomic" : "");
}

// Rows of a Level0 profile, or of other tasks than AI core kernels, that no catalog op stands for.
std::string notAKernelReason(const RealKernel& k, bool hasShapes) {
    if (!hasShapes || k.type == "N/A") return "Level0 profile: no op type or tensors recorded";
    if (k.acceleratorCore == "DSA_SQE") return "DSA task (data-streaming accelerator, not an AI core kernel)";
    return "";
}

// The held inputs' writers of a row (l2_timeline.h) when the replay `uses` them; empty otherwise
// or when the timeline recorded none.
const std::vector<TensorWriter>& rowWriters(const L2Timeline& timeline, std::size_t row, bool uses) {
    static const std::vector<TensorWriter> kNone;
    return uses && row < timeline.residentWriters.size() ? timeline.residentWriters[row] : kNone;
}

std::string residencyText(const RealProfile& profile, const std::vector<std::size_t>& inputs,
                          const std::vector<std::size_t>& outputs, const std::vector<TensorWriter>& writers) {
    std::string text = "|resident:";
    for (std::size_t j : inputs) text += std::to_string(j) + ',';
    text += "|outputs:";
    for (std::size_t j : outputs) text += std::to_string(j) + ',';
    for (const TensorWriter& w : writers)
        text += w.present() ? "|written by " + identityOf(profile.kernels[w.row]) + '#' + std::to_string(w.output) : "|read";
    return text;
}

// The writers of a row's held inputs as the kernels they are (copied once a group, not per row).
std::vector<std::optional<ResidentWriter>> writersOf(const RealProfile& profile, const std::vector<TensorWriter>& written) {
    std::vector<std::optional<ResidentWriter>> writers;
    for (const TensorWriter& w : written) {
        if (w.present()) writers.push_back(ResidentWriter{profile.kernels[w.row], w.output});
        else writers.emplace_back();
    }
    return writers;
}

std::vector<std::uint64_t> bytesOf(const std::vector<RealTensor>& tensors, const std::vector<std::size_t>& indices) {
    std::vector<std::uint64_t> bytes;
    for (std::size_t j : indices) {
        if (j >= tensors.size() || tensors[j].absent) continue;
        bytes.push_back(tensorBytes(tensors[j]));
    }
    return bytes;
}

// The writers of the resident inputs bytesOf keeps, rebuilt as ops (none for an input no write
// left as written, or whose writer cannot be rebuilt).
std::vector<std::optional<ResidentWriterOp>> writerOpsOf(const ReplayedKernel& k) {
    std::vector<std::optional<ResidentWriterOp>> ops;
    const std::vector<RealTensor> inputs = realInputs(k.sample);
    for (std::size_t n = 0; n < k.residentInputs.size(); ++n) {
        const std::size_t j = k.residentInputs[n];
        if (j >= inputs.size() || inputs[j].absent) continue;
        ops.emplace_back();
        if (n >= k.residentWriters.size() || !k.residentWriters[n]) continue;
        try {
            const RealKernel& writer = k.residentWriters[n]->kernel;
            ops.back() = ResidentWriterOp{replayOp(writer), isInPlaceKernel(writer)};
        } catch (const UnreplayableKernel&) {
        }
    }
    return ops;
}

// The in-place flag and the byte sizes of the kernel's resident inputs as recorded (the replay
// op's tensors are matched to them by size: a rule may reorder or reshape, never resize, one).
ReplayPlacement placementOf(const ReplayedKernel& k) {
    ReplayPlacement placement;
    placement.inPlace = isInPlaceKernel(k.sample);
    if (!k.residentInputs.empty()) placement.residentBytes = bytesOf(realInputs(k.sample), k.residentInputs);
    if (!k.residentWriters.empty()) placement.residentWriters = writerOpsOf(k);
    if (!k.residentOutputs.empty()) placement.residentOutputBytes = bytesOf(realOutputs(k.sample), k.residentOutputs);
    placement.codeResident = k.codeResident;
    placement.codeHeldInL2 = k.codeHeldInL2;
    placement.victimDirtyShare = k.victimDirtyShare;
    placement.dirtyVictimBound = k.dirtyVictimBound;
    placement.concurrentHbm = k.concurrentHbm;
    return placement;
}

}  // namespace

std::vector<bool> codeHeldInL2Rows(const RealProfile& profile, std::uint64_t l2Bytes, const ChipConfig* codeChip) {
    std::vector<bool> held(profile.kernels.size(), true);
    if (codeChip == nullptr || !profile.hasShapes || codeChip->icache.kernelCodeBytes == 0) return held;
    const L2Timeline walk = l2Timeline(profile, l2Bytes > 0 ? l2Bytes : codeChip->l2.sizeBytes,
                                       TimelineStart::SteadyState, codeChip->icache.kernelCodeBytes);
    for (std::size_t row = 0; row < held.size(); ++row) held[row] = walk.codeHeld[row];
    return held;
}

CodeWalk codeWalkOf(L2State l2) { return l2 == L2State::Timeline ? CodeWalk::PerCoreRing : CodeWalk::PerSide; }

L2Timeline residencyByRow(const RealProfile& profile, L2State l2, std::uint64_t l2Bytes, TimelineReads reads) {
    const bool producerAware = preloadsResidents(l2) && profile.hasShapes;
    if (producerAware && l2 == L2State::Timeline)
        return l2Timeline(profile, l2Bytes, TimelineStart::SteadyState, 0, reads);
    if (producerAware && l2 == L2State::Producer)
        return L2Timeline{producedInputs(profile, l2Bytes), residentCopyTargets(profile, l2Bytes), {}, {}, {}, {}};
    return L2Timeline{std::vector<std::vector<std::size_t>>(profile.kernels.size()),
                      std::vector<std::vector<std::size_t>>(profile.kernels.size()), {}, {}, {}, {}};
}

std::vector<ReplayedKernel> distinctKernels(const RealProfile& profile, L2State l2, std::uint64_t l2Bytes,
                                            const ChipConfig* codeChip, bool walkCodeInL2, bool timelineVictims,
                                            bool hcclTraffic, TimelineReads reads) {
    const bool producerAware = preloadsResidents(l2) && profile.hasShapes;
    const L2Timeline resident = residencyByRow(profile, l2, l2Bytes, reads);
    const auto& produced = resident.residentInputs;
    const auto& targets = resident.residentOutputs;
    const bool keepsPartialLines = l2 == L2State::Timeline && codeChip != nullptr && codeChip->l2.partialLineFill != PartialLineFill::None;
    const std::vector<bool> codeResident =
        codeChip != nullptr ? codeResidentRows(profile, *codeChip, codeWalkOf(l2))
                            : std::vector<bool>(profile.kernels.size(), false);
    const std::vector<bool> codeHeld = walkCodeInL2 ? codeHeldInL2Rows(profile, l2Bytes, codeChip)
                                                    : std::vector<bool>(profile.kernels.size(), true);
    std::vector<ReplayedKernel> groups;
    std::unordered_map<std::string, std::size_t> index;
    std::vector<std::vector<double>> durations;
    std::vector<std::map<std::string, std::vector<double>>> pipes;
    const bool walked = l2 == L2State::Timeline && producerAware;
    const bool victims = timelineVictims && walked;
    const bool bounds = !timelineVictims && walked;  // the eager write-back's bound (§178)
    std::vector<double> victimShareSums;
    for (std::size_t row = 0; row < profile.kernels.size(); ++row) {
        const RealKernel& kernel = profile.kernels[row];
        const std::vector<TensorWriter>& writers = rowWriters(resident, row, keepsPartialLines && producerAware);
        std::vector<ConcurrentHbmWindow> concurrent =
            hcclTraffic ? concurrentHbmWindows(kernel, profile.hcclTransfers) : std::vector<ConcurrentHbmWindow>{};
        const std::string id = (profile.hasShapes ? identityOf(kernel) : kernel.name) +
                               (producerAware ? residencyText(profile, produced[row], targets[row], writers) : "") +
                               (codeResident[row] ? "|code resident" : "") + (codeHeld[row] ? "" : "|code from HBM") +
                               concurrentTrafficText(concurrent);
        auto [it, inserted] = index.emplace(id, groups.size());
        if (inserted) {
            ReplayedKernel group;
            group.sample = kernel;
            group.residentInputs = produced[row];
            group.residentOutputs = targets[row];
            group.residentWriters = writersOf(profile, writers);
            group.codeResident = codeResident[row];
            group.codeHeldInL2 = codeHeld[row];
            group.concurrentHbm = std::move(concurrent);
            group.family = profile.hasShapes ? familyOf(kernel.type) : "unknown (Level0)";
            group.excluded = notAKernelReason(kernel, profile.hasShapes);
            group.reason = group.excluded;
            groups.push_back(std::move(group));
            durations.emplace_back();
            pipes.emplace_back();
            victimShareSums.push_back(0.0);
        }
        ReplayedKernel& group = groups[it->second];
        ++group.occurrences;
        group.realTotalUs += kernel.durationUs;
        durations[it->second].push_back(kernel.durationUs);
        if (victims) victimShareSums[it->second] += resident.victimDirtyShare[row];
        if (bounds) victimShareSums[it->second] += resident.dirtyVictimBound[row];
        for (const auto& [pipe, value] : kernel.pipeRatios) pipes[it->second][pipe].push_back(value);
    }
    for (std::size_t i = 0; i < groups.size(); ++i) {
        groups[i].realUs = median(durations[i]);
        const double meanShare = victimShareSums[i] / static_cast<double>(groups[i].occurrences);
        if (victims) groups[i].victimDirtyShare = meanShare;
        if (bounds) groups[i].dirtyVictimBound = meanShare;
        for (const auto& [pipe, values] : pipes[i]) groups[i].realPipes[pipe] = median(values);
    }
    return groups;
}

void simulateKernels(std::vector<ReplayedKernel>& kernels, const ChipConfig& chip, L2State l2,
                     const ReplayProgress& progress) {
    for (std::size_t i = 0; i < kernels.size(); ++i) {
        ReplayedKernel& k = kernels[i];
        k.simulated.reset();
        k.reason = k.excluded;
        if (k.excluded.empty()) {
            try {
                k.simulated = simulateReplayOp(replayOp(k.sample), chip, l2, placementOf(k));
            } catch (const UnreplayableKernel& e) {
                k.reason = e.what();
            }
        }
        if (progress) progress(i + 1, kernels.size());
    }
}

std::vector<KernelFidelity> fidelityInputs(const std::vector<ReplayedKernel>& kernels, const std::string& family) {
    std::vector<KernelFidelity> inputs;
    for (const auto& k : kernels) {
        if (!k.simulated || (!family.empty() && k.family != family)) continue;
        inputs.push_back(KernelFidelity{k.realUs, k.simulated->durationUs, k.realPipes, k.simulated->pipeRatios});
    }
    return inputs;
}

}  // namespace ascendsim
