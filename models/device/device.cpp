#include "models/device/device.h"

#include <stdexcept>
#include <string>
#include <systemc>
#include <vector>

#include "models/core/ai_core.h"
#include "models/core/program_prefetcher.h"
#include "models/device/task_scheduler.h"
#include "models/memory/shared_memory_system.h"
#include "models/timing/transfer_timing.h"

namespace ascendsim {

struct Device::Impl {
    Impl(const ChipConfig& chipConfig, TaskObserver& observer, MemorySystem* externalMemory, DeviceOptions options)
        : chip(chipConfig),
          prefetcher(options.generateProgramsAhead ? std::make_unique<ProgramPrefetcher>() : nullptr),
          ownedMemory(externalMemory ? std::unique_ptr<SharedMemorySystem>() : std::make_unique<SharedMemorySystem>(chip)),
          transfer(chip),
          cube(chip),
          vector(chip),
          resources{chip, transfer, cube, vector, externalMemory ? *externalMemory : *ownedMemory, errors, barriers} {
        if (sc_core::sc_get_time_resolution() != sc_core::sc_time(1, sc_core::SC_PS))
            throw std::logic_error("Device needs the SystemC time resolution of 1 ps");
        if (chip.aiCoreFreqMhz <= 0) throw std::invalid_argument(chip.name + ": aiCoreFreqMhz must be positive");
        const bool split = chip.organisation == CoreOrganisation::Split;
        if (split && chip.vectorCoresPerCube + 1 > kMaxGroupSlots)
            throw std::invalid_argument(chip.name + ": at most " + std::to_string(kMaxGroupSlots - 1) +
                                        " AIVs per AIC are modelled");
        if (split && chip.vectorCoreCount < chip.aiCoreCount * chip.vectorCoresPerCube)
            throw std::invalid_argument(chip.name + ": split organisation needs vectorCoresPerCube AIVs per AIC");
        std::uint32_t globalId = 0;
        for (std::uint32_t i = 0; i < chip.aiCoreCount; ++i)
            cores.push_back(std::make_unique<AiCore>(resources, split ? CoreKind::Cube : CoreKind::Coupled, i,
                                                     globalId++, *this->hostProxy()));
        for (std::uint32_t i = 0; i < chip.vectorCoreCount; ++i)
            cores.push_back(
                std::make_unique<AiCore>(resources, CoreKind::Vector, i, globalId++, *this->hostProxy()));
        std::vector<AiCore*> cubes;
        std::vector<AiCore*> vectors;
        for (auto& core : cores) (core->kind() == CoreKind::Vector ? vectors : cubes).push_back(core.get());
        for (const DeviceOptions::ResidentCode& resident : options.residentCodeImages) {
            KernelTask binary;
            binary.codeImage = resident.image;
            for (auto& core : cores) core->preloadCode(codeIdOf(binary, core->kind()), resident.codeBytes);
        }
        scheduler = std::make_unique<TaskScheduler>(chip, std::move(cubes), std::move(vectors), observer, errors,
                                                    prefetcher.get());
        proxy.target = scheduler.get();
    }

    // Cores are built before the scheduler that receives their finished blocks.
    struct HostProxy final : CoreHost {
        CoreHost* target = nullptr;
        void onBlockFinished(AiCore& core) override { target->onBlockFinished(core); }
    };
    HostProxy* hostProxy() { return &proxy; }

    ChipConfig chip;
    // Before the scheduler and cores, so it is destroyed (its worker joined) after them.
    std::unique_ptr<ProgramPrefetcher> prefetcher;
    SimulationErrors errors;
    std::unique_ptr<SharedMemorySystem> ownedMemory;
    TransferTiming transfer;
    CubeTiming cube;
    VectorTimingModel vector;
    CrossCoreBarriers barriers;
    CoreResources resources;
    HostProxy proxy;
    std::vector<std::unique_ptr<AiCore>> cores;
    std::unique_ptr<TaskScheduler> scheduler;
};

Device::Device(const ChipConfig& chip, TaskObserver& observer, DeviceOptions options)
    : impl_(std::make_unique<Impl>(chip, observer, nullptr, options)) {}

Device::Device(const ChipConfig& chip, TaskObserver& observer, MemorySystem& memory, DeviceOptions options)
    : impl_(std::make_unique<Impl>(chip, observer, &memory, options)) {}

Device::~Device() = default;

void Device::submit(KernelTask task, std::uint64_t submitNs) {
    impl_->scheduler->submit(std::move(task), submitNs * 1000);
}

std::uint64_t Device::runUntilIdle() {
    if (impl_->errors.first) std::rethrow_exception(impl_->errors.first);
    // Back-to-back collectives ask again with nothing submitted; sc_start would warn (W571).
    if (sc_core::sc_pending_activity()) sc_core::sc_start();
    if (impl_->errors.first) std::rethrow_exception(impl_->errors.first);
    if (!impl_->scheduler->idle()) throw std::runtime_error("device deadlock: " + impl_->scheduler->stuckReport());
    return nowNs();
}

std::uint64_t Device::nowNs() const { return sc_core::sc_time_stamp().value() / 1000; }

bool Device::addConcurrentHbmTraffic(const std::vector<ConcurrentHbmWindow>& windows) {
    if (!impl_->ownedMemory) return false;
    impl_->ownedMemory->addConcurrentTraffic(windows);
    return true;
}

const TrafficSampler* Device::traffic() const {
    return impl_->ownedMemory ? &impl_->ownedMemory->traffic() : nullptr;
}

DeviceStats Device::stats() const {
    DeviceStats s;
    for (const auto& core : impl_->cores) {
        s.instructions += core->instructionsExecuted();
        s.activations += core->activations();
    }
    s.coreCycles = impl_->scheduler->finishedCoreCycles();
    return s;
}

}  // namespace ascendsim
