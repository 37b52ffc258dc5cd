// Programs generated ahead on the worker thread are the programs the factory makes: same
// instructions in the same order, whether the worker finished a part, never reached it, or
// stopped at its prefix limit; a generator's exception reaches the core where it happened.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>

#include "models/core/program_prefetcher.h"

namespace ascendsim {
namespace {

// Block b's program: `length` scalar instructions whose cycles encode (block, position), in
// chunks of 100; throws after `throwAfter` instructions when that is set.
class NumberedProgram final : public InstructionStream {
public:
    NumberedProgram(std::uint32_t block, std::size_t length, std::size_t throwAfter)
        : block_(block), length_(length), throwAfter_(throwAfter) {}
    bool next(std::vector<Instruction>& out) override {
        if (position_ == length_) return false;
        if (position_ >= throwAfter_) throw std::runtime_error("generator failed in block " + std::to_string(block_));
        for (int i = 0; i < 100 && position_ < length_; ++i, ++position_)
            out.push_back(Instruction::scalar(static_cast<std::uint32_t>(block_ * 1000000 + position_)));
        return true;
    }

private:
    std::uint32_t block_;
    std::size_t length_, position_ = 0, throwAfter_;
};

ProgramFactory numberedFactory(std::size_t length, std::size_t throwAfter = SIZE_MAX,
                               std::atomic<int>* calls = nullptr) {
    return [=](const BlockProgramRequest& request) {
        if (calls != nullptr) ++*calls;
        return std::make_unique<NumberedProgram>(request.blockIdx, length, throwAfter);
    };
}

BlockProgramRequest block(std::uint32_t b) { return {b, CoreKind::Vector, 0, 0}; }

std::vector<std::uint32_t> drain(InstructionStream& stream) {
    std::vector<Instruction> chunk;
    while (stream.next(chunk)) {
    }
    std::vector<std::uint32_t> cycles;
    for (const Instruction& i : chunk) cycles.push_back(std::get<ScalarWork>(i.operands).cycles);
    return cycles;
}

std::vector<std::uint32_t> direct(const ProgramFactory& factory, std::uint32_t b) {
    return drain(*factory(block(b)));
}

void waitUntilBuffered(const ProgramPrefetcher& prefetcher, std::size_t instructions) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (prefetcher.bufferedInstructions() < instructions && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

TEST(ProgramPrefetcher, GeneratedAheadEqualsTheFactorysProgram) {
    const ProgramFactory factory = numberedFactory(450);
    ProgramPrefetcher prefetcher;
    for (std::uint32_t b = 0; b < 4; ++b) prefetcher.enqueue(7, factory, block(b));
    waitUntilBuffered(prefetcher, 4 * 450);
    EXPECT_EQ(prefetcher.bufferedInstructions(), 4u * 450);  // the worker really ran ahead
    for (std::uint32_t b = 0; b < 4; ++b) EXPECT_EQ(drain(*prefetcher.take(7, factory, block(b))), direct(factory, b));
    EXPECT_EQ(prefetcher.bufferedInstructions(), 0u);
}

TEST(ProgramPrefetcher, ProgramLongerThanThePrefix_ContinuesFromWhereTheWorkerStopped) {
    const std::size_t length = ProgramPrefetcher::kPrefixInstructions * 2 + 130;
    const ProgramFactory factory = numberedFactory(length);
    ProgramPrefetcher prefetcher;
    prefetcher.enqueue(1, factory, block(3));
    waitUntilBuffered(prefetcher, ProgramPrefetcher::kPrefixInstructions);
    EXPECT_LT(prefetcher.bufferedInstructions(), length);
    EXPECT_EQ(drain(*prefetcher.take(1, factory, block(3))), direct(factory, 3));
}

TEST(ProgramPrefetcher, PartNeverQueued_IsMadeByTheFactoryOnTheCallersThread) {
    std::atomic<int> calls{0};
    const ProgramFactory factory = numberedFactory(250, SIZE_MAX, &calls);
    ProgramPrefetcher prefetcher;
    EXPECT_EQ(drain(*prefetcher.take(5, factory, block(0))), direct(factory, 0));
    EXPECT_EQ(calls.load(), 2);
}

TEST(ProgramPrefetcher, GeneratorThatThrows_RethrowsAtTheSamePointOfTheProgram) {
    const ProgramFactory factory = numberedFactory(1000, 300);
    ProgramPrefetcher prefetcher;
    prefetcher.enqueue(2, factory, block(1));
    waitUntilBuffered(prefetcher, 300);
    auto stream = prefetcher.take(2, factory, block(1));
    std::vector<Instruction> chunk;
    ASSERT_TRUE(stream->next(chunk));  // the 300 instructions made before the failure
    EXPECT_EQ(chunk.size(), 300u);
    EXPECT_THROW(stream->next(chunk), std::runtime_error);
}

TEST(ProgramPrefetcher, StaysWithinItsBudget) {
    const ProgramFactory factory = numberedFactory(ProgramPrefetcher::kPrefixInstructions);
    const std::size_t parts = 3 * ProgramPrefetcher::kBudgetInstructions / ProgramPrefetcher::kPrefixInstructions;
    ProgramPrefetcher prefetcher;
    for (std::uint32_t b = 0; b < parts; ++b) prefetcher.enqueue(9, factory, block(b));
    waitUntilBuffered(prefetcher, ProgramPrefetcher::kBudgetInstructions);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));  // would it go on?
    EXPECT_GE(prefetcher.bufferedInstructions(), ProgramPrefetcher::kBudgetInstructions);
    EXPECT_LT(prefetcher.bufferedInstructions(),
              ProgramPrefetcher::kBudgetInstructions + 2 * ProgramPrefetcher::kPrefixInstructions);
    // Taking every part in order frees the budget for the rest; all equal the factory's programs.
    for (std::uint32_t b = 0; b < parts; ++b) ASSERT_EQ(drain(*prefetcher.take(9, factory, block(b))), direct(factory, b));
}

TEST(ProgramPrefetcher, DestroyedWithPartsStillQueued_Stops) {
    const ProgramFactory factory = numberedFactory(ProgramPrefetcher::kPrefixInstructions);
    auto prefetcher = std::make_unique<ProgramPrefetcher>();
    for (std::uint32_t b = 0; b < 200; ++b) prefetcher->enqueue(4, factory, block(b));
    prefetcher.reset();  // joins the worker; must not hang or crash
    SUCCEED();
}

}  // namespace
}  // namespace ascendsim
