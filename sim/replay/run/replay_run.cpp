#include "sim/replay/run/replay_run.h"

#include <unordered_map>

#include "sim/replay/input/real_tensors.h"
#include "sim/replay/rules/replay_op_rules.h"

namespace ascendsim {

namespace {

std::string identityOf(const RealKernel& k) {
    return k.type + '|' + k.acceleratorCore + '|' + std::to_string(k.blockDim) + '|' + std::to_string(k.mixBlockDim) +
           '|' + k.inputShapes + '|' + k.inputDtypes + '|' + k.inputFormats + '|' + k.outputShapes + '|' +
           k.outputDtypes + '|' + k.outputFormats;
}

// Rows of a Level0 profile, or of other tasks than AI core kernels, that no catalog op stands for.
std::string notAKernelReason(const RealKernel& k, bool hasShapes) {
    if (!hasShapes || k.type == "N/A") return "Level0 profile: no op type or tensors recorded";
    if (k.acceleratorCore == "DSA_SQE") return "DSA task (data-streaming accelerator, not an AI core kernel)";
    return "";
}

}  // namespace

std::vector<ReplayedKernel> distinctKernels(const RealProfile& profile) {
    std::vector<ReplayedKernel> groups;
    std::unordered_map<std::string, std::size_t> index;
    std::vector<std::vector<double>> durations;
    std::vector<std::map<std::string, std::vector<double>>> pipes;
    for (const auto& kernel : profile.kernels) {
        const std::string id = profile.hasShapes ? identityOf(kernel) : kernel.name;
        auto [it, inserted] = index.emplace(id, groups.size());
        if (inserted) {
            ReplayedKernel group;
            group.sample = kernel;
            group.family = profile.hasShapes ? familyOf(kernel.type) : "unknown (Level0)";
            group.excluded = notAKernelReason(kernel, profile.hasShapes);
            group.reason = group.excluded;
            groups.push_back(std::move(group));
            durations.emplace_back();
            pipes.emplace_back();
        }
        ReplayedKernel& group = groups[it->second];
        ++group.occurrences;
        group.realTotalUs += kernel.durationUs;
        durations[it->second].push_back(kernel.durationUs);
        for (const auto& [pipe, value] : kernel.pipeRatios) pipes[it->second][pipe].push_back(value);
    }
    for (std::size_t i = 0; i < groups.size(); ++i) {
        groups[i].realUs = median(durations[i]);
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
                k.simulated = simulateReplayOp(replayOp(k.sample), chip, l2);
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
