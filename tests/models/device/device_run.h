#pragma once
// One simulation per test: a fresh SystemC context, the test chip, a fake memory and a device.
#include <memory>
#include <vector>

#include <gtest/gtest.h>

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

// The counters of a task's only block.
inline PmuCounters onlyBlock(const TaskResult& r) {
    EXPECT_EQ(r.blocks.size(), 1u);
    return r.blocks.at(0).counters;
}

// The counters of one vector block of `program` on `chip`, every GM access served `latencyCycles`
// after it starts and its requests taken in `requestCycles` (0: at once): the in-flight load and
// store tests' run.
inline PmuCounters runVectorBlockOnTimedMemory(const ChipConfig& chip, const std::vector<Instruction>& program,
                                               std::uint64_t latencyCycles, std::uint64_t requestCycles) {
    DeviceRun device(chip);
    device.memory.latencyPs = latencyCycles * 1000;
    device.memory.requestPs = requestCycles * 1000;
    return onlyBlock(device.runOne(vectorTask(program)));
}

// MTE2 loads 6400 B (100 cycles on the test chip), sets MTE2→V; the vector pipe waits, then runs
// one vadds (into the next 64 KiB bank slice: no bank conflict): 2 work and 2 sync instructions.
inline std::vector<Instruction> loadThenCompute() {
    return {gmToUb(0, 6400), Instruction::setFlag(Pipe::Mte2, Pipe::Vector, 0),
            Instruction::waitFlag(Pipe::Mte2, Pipe::Vector, 0), vadds(0x10000, 0)};
}

// One vadds, the V → MTE3 hand-off, then `stores` UB → GM stores of `bytes` each from distinct UB
// slots: the store tests' block (in flight, §79; acknowledged, §91).
inline std::vector<Instruction> computeThenStores(int stores, std::uint32_t bytes) {
    std::vector<Instruction> p{vadds(0x20000, 0), Instruction::setFlag(Pipe::Vector, Pipe::Mte3, 0),
                               Instruction::waitFlag(Pipe::Vector, Pipe::Mte3, 0)};
    for (int i = 0; i < stores; ++i)
        p.push_back(ubToGm(0x1000 * static_cast<std::uint64_t>(i), bytes, 0x10000 * static_cast<std::uint64_t>(i)));
    return p;
}

// One store, then MTE3 → V: the vector pipe overwrites the UB the store read.
inline std::vector<Instruction> storeThenOverwriteItsUb(std::uint32_t bytes) {
    std::vector<Instruction> p = computeThenStores(1, bytes);
    p.push_back(Instruction::setFlag(Pipe::Mte3, Pipe::Vector, 0));
    p.push_back(Instruction::waitFlag(Pipe::Mte3, Pipe::Vector, 0));
    p.push_back(vadds(0, 0x20000));
    return p;
}

// A store, a PIPE_MTE3 barrier, a second store: the barrier waits for the first one's write.
inline std::vector<Instruction> storeBarrierStore(std::uint32_t bytes) {
    std::vector<Instruction> p = computeThenStores(1, bytes);
    p.push_back(Instruction::barrier(Pipe::Mte3));
    p.push_back(ubToGm(0x1000, bytes, 0x10000));
    return p;
}

}  // namespace ascendsim::test
