#include "models/functional/cross_core_semaphores.h"

#include <stdexcept>
#include <string>

namespace ascendsim {

CrossCoreSemaphores::CrossCoreSemaphores(std::uint32_t groups, std::uint32_t vectorCoresPerCube)
    : groups_(groups), vectorCoresPerCube_(vectorCoresPerCube),
      counts_(std::size_t{groups} * (1 + vectorCoresPerCube) * kFlagIds, 0) {}

CrossCoreSemaphores CrossCoreSemaphores::singleKind(std::uint32_t blocks, CoreKind kind, std::uint32_t coresOnChip) {
    CrossCoreSemaphores semaphores(blocks, 0);
    semaphores.mix_ = false;
    semaphores.soleKind_ = kind;
    semaphores.coresOnChip_ = coresOnChip;
    return semaphores;
}

void CrossCoreSemaphores::checkFlag(const CrossCoreFlag& flag) const {
    if (flag.flagId >= kFlagIds)
        throw std::runtime_error("CrossCoreFlag: flag id " + std::to_string(flag.flagId) +
                                 " outside 0.." + std::to_string(kFlagIds - 1));
    if (flag.mode > 2)
        throw std::runtime_error("CrossCoreFlag: mode " + std::to_string(flag.mode) + " does not exist (0, 1, 2)");
    if (flag.mode != 0 && !mix_)
        throw std::runtime_error("CrossCoreFlag: mode " + std::to_string(flag.mode) +
                                 " synchronises an AIC+AIV group, in a kernel that is not MIX");
}

std::uint32_t CrossCoreSemaphores::coresOf(CoreKind kind) const {
    if (!mix_) return kind == soleKind_ ? groups_ : 0;
    return kind == CoreKind::Vector ? groups_ * vectorCoresPerCube_ : groups_;
}

std::uint32_t CrossCoreSemaphores::indexInKind(const CoreSlot& core) const {
    return mix_ && core.kind == CoreKind::Vector ? core.group * vectorCoresPerCube_ + core.subBlock : core.group;
}

CrossCoreSemaphores::AllCoresFlag& CrossCoreSemaphores::allCores(const CoreSlot& core, std::uint8_t flagId) {
    AllCoresFlag& flag = allCores_[{core.kind, flagId}];
    if (flag.sets.empty()) {
        // A mode-0 wait counts the sets of running cores: a block that runs in a later wave
        // would never set, so every block must be resident (the timing model rejects it too).
        if (!mix_ && groups_ > coresOnChip_)
            throw std::runtime_error("CrossCoreFlag: mode-0 flag over " + std::to_string(groups_) +
                                     " blocks, but the chip runs at most " + std::to_string(coresOnChip_) +
                                     " at once (every block must be resident)");
        flag.sets.assign(coresOf(core.kind), 0);
        flag.waits.assign(coresOf(core.kind), 0);
    }
    return flag;
}

std::uint32_t& CrossCoreSemaphores::counter(const CoreSlot& core, std::uint8_t flagId) {
    const std::uint32_t inGroup = core.kind == CoreKind::Vector ? 1 + core.subBlock : 0;
    return counts_[(std::size_t{core.group} * (1 + vectorCoresPerCube_) + inGroup) * kFlagIds + flagId];
}

void CrossCoreSemaphores::raise(const CoreSlot& core, std::uint8_t flagId) {
    std::uint32_t& count = counter(core, flagId);
    if (++count > kMaxCount)
        throw std::runtime_error("CrossCoreSetFlag: flag " + std::to_string(flagId) + " of group " +
                                 std::to_string(core.group) + " exceeds the maximum count " +
                                 std::to_string(kMaxCount));
}

void CrossCoreSemaphores::set(const CoreSlot& core, const CrossCoreFlag& flag) {
    checkFlag(flag);
    if (flag.mode == 0) {
        ++allCores(core, flag.flagId).sets[indexInKind(core)];
        return;
    }
    if (flag.mode == 2) {
        if (core.kind == CoreKind::Vector) {
            raise({core.group, CoreKind::Cube, 0}, flag.flagId);
        } else {
            for (std::uint32_t aiv = 0; aiv < vectorCoresPerCube_; ++aiv)
                raise({core.group, CoreKind::Vector, aiv}, flag.flagId);
        }
        return;
    }
    if (core.kind != CoreKind::Vector)
        throw std::runtime_error("CrossCoreSetFlag: mode 1 is AIV to AIV, set on an AIC");
    for (std::uint32_t aiv = 0; aiv < vectorCoresPerCube_; ++aiv)
        if (aiv != core.subBlock) raise({core.group, CoreKind::Vector, aiv}, flag.flagId);
}

bool CrossCoreSemaphores::tryWait(const CoreSlot& core, const CrossCoreFlag& flag) {
    checkFlag(flag);
    if (flag.mode == 0) {
        AllCoresFlag& all = allCores(core, flag.flagId);
        std::uint32_t& passed = all.waits[indexInKind(core)];
        for (std::uint32_t sets : all.sets)
            if (sets <= passed) return false;  // some core of the kind has not set this round yet
        ++passed;
        return true;
    }
    const std::uint32_t needed =
        (flag.mode == 2 && core.kind != CoreKind::Vector) ? vectorCoresPerCube_ : 1;
    std::uint32_t& count = counter(core, flag.flagId);
    if (count < needed) return false;
    count -= needed;
    return true;
}

}  // namespace ascendsim
