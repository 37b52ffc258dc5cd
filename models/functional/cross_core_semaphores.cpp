#include "models/functional/cross_core_semaphores.h"

#include <stdexcept>
#include <string>

namespace ascendsim {

CrossCoreSemaphores::CrossCoreSemaphores(std::uint32_t groups, std::uint32_t vectorCoresPerCube)
    : groups_(groups), vectorCoresPerCube_(vectorCoresPerCube),
      counts_(std::size_t{groups} * (1 + vectorCoresPerCube) * kFlagIds, 0) {}

void CrossCoreSemaphores::checkFlag(const CrossCoreFlag& flag) {
    if (flag.flagId >= kFlagIds)
        throw std::runtime_error("CrossCoreFlag: flag id " + std::to_string(flag.flagId) +
                                 " outside 0.." + std::to_string(kFlagIds - 1));
    if (flag.mode != 1 && flag.mode != 2)
        throw std::runtime_error("CrossCoreFlag: mode " + std::to_string(flag.mode) +
                                 " is not modelled (only 1 and 2)");
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
    const std::uint32_t needed =
        (flag.mode == 2 && core.kind != CoreKind::Vector) ? vectorCoresPerCube_ : 1;
    std::uint32_t& count = counter(core, flag.flagId);
    if (count < needed) return false;
    count -= needed;
    return true;
}

}  // namespace ascendsim
