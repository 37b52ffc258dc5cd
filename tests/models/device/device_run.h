#pragma once
// One simulation per test: a fresh SystemC context, the test chip, a fake memory and a device.
#include <memory>

#include "models/device/device.h"
#include "models/device/device_test_chip.h"
#include "models/systemc/fresh_simulation_context.h"

namespace ascendsim::test {

struct DeviceRun {
    explicit DeviceRun(const ChipConfig& config = deviceTestChip())
        : chip(config), device(std::make_unique<Device>(chip, observer, memory)) {}

    // Runs one task from time 0 and returns its result.
    const TaskResult& runOne(KernelTask task) {
        device->submit(std::move(task), 0);
        device->runUntilIdle();
        return observer.results.back();
    }

    FreshSimulationContext context;  // first: destroyed after the device
    ChipConfig chip;
    FakeMemorySystem memory;
    RecordingObserver observer;
    std::unique_ptr<Device> device;
};

}  // namespace ascendsim::test
