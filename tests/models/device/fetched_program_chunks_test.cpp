// AiCore::fetchNext keeps the fetched program from the oldest instruction a pipe still holds and
// drops the retired prefix only once it is at least as long as the rest (perfwalk2,
// docs/performance.md "Session 26"): how the program arrives in chunks must not change what the
// core does. A program delivered in chunks of 1, 3 and 7 instructions (every fetch with
// instructions still queued in the pipes, some fetches dropping the prefix and some not) runs to
// the same counters as the same program delivered whole.
#include <gtest/gtest.h>

#include <algorithm>

#include "models/device/device.h"
#include "models/device/device_run.h"
#include "models/systemc/fresh_simulation_context.h"
#include "sim/config/chip_config_loader.h"
#include "tests/models/device/load_compute_store_stream.h"

namespace ascendsim::test {
namespace {

// The program `chunkSize` instructions at a time.
class ChunkedStream final : public InstructionStream {
public:
    ChunkedStream(std::vector<Instruction> program, std::size_t chunkSize)
        : program_(std::move(program)), chunkSize_(chunkSize) {}
    bool next(std::vector<Instruction>& out) override {
        if (pos_ >= program_.size()) return false;
        const std::size_t end = std::min(program_.size(), pos_ + chunkSize_);
        out.insert(out.end(), program_.begin() + static_cast<std::ptrdiff_t>(pos_),
                   program_.begin() + static_cast<std::ptrdiff_t>(end));
        pos_ = end;
        return true;
    }

private:
    std::vector<Instruction> program_;
    std::size_t chunkSize_;
    std::size_t pos_ = 0;
};

// chunkSize 0: the whole program as one chunk.
std::vector<PmuCounters> runInChunks(std::size_t chunkSize) {
    const ChipConfig chip = loadChipByName("Ascend910B4", defaultConfigDir());
    FreshSimulationContext context;
    RecordingObserver observer;
    Device device(chip, observer);
    KernelTask task = vectorTask({}, 4);
    task.program = [chunkSize](const BlockProgramRequest& r) -> std::unique_ptr<InstructionStream> {
        // Double-buffered loads, vector work and stores: the pipes hold several instructions at a time.
        const std::uint64_t in = std::uint64_t{r.blockIdx} * 0x100000;
        std::vector<Instruction> program = loadComputeStoreStream(in, in + 0x80000, 40, 4096, 2048);
        if (chunkSize == 0) return std::make_unique<FixedInstructionStream>(std::move(program));
        return std::make_unique<ChunkedStream>(std::move(program), chunkSize);
    };
    device.submit(std::move(task), 0);
    device.runUntilIdle();
    std::vector<PmuCounters> counters;
    for (const BlockResult& b : observer.results.at(0).blocks) counters.push_back(b.counters);
    return counters;
}

TEST(FetchedProgramChunks, ChunkSizeDoesNotChangeWhatTheCoreDoes) {
    const std::vector<PmuCounters> whole = runInChunks(0);
    ASSERT_EQ(whole.size(), 4u);
    for (std::size_t chunkSize : {1u, 3u, 7u}) {
        const std::vector<PmuCounters> chunked = runInChunks(chunkSize);
        ASSERT_EQ(chunked.size(), whole.size());
        for (std::size_t b = 0; b < whole.size(); ++b) {
            EXPECT_EQ(chunked[b].totalCycles, whole[b].totalCycles) << "chunk " << chunkSize << " block " << b;
            for (PmuEvent e : {PmuEvent::Mte2Busy, PmuEvent::Mte3Busy, PmuEvent::VecBusy, PmuEvent::IcacheReq})
                EXPECT_EQ(chunked[b][e], whole[b][e]) << "chunk " << chunkSize << " block " << b;
        }
    }
}

}  // namespace
}  // namespace ascendsim::test
