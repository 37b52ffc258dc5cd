// `--l2 producer`: the inputs a kernel just before wrote are in L2 when the kernel is timed, the
// others are cold; the distinct-kernel key holds which inputs were resident.
#include <gtest/gtest.h>

#include "sim/config/chip_config_loader.h"
#include "sim/replay/replay_command.h"
#include "sim/replay/replay_fixtures.h"
#include "sim/replay/run/producer_inputs.h"

namespace ascendsim {
namespace {

using namespace replay_fixtures;

// One Add row of the 8.3 layout: inputs `in` (two tensors of that shape), output `out`, bf16 ND.
std::string addRow(int taskId, const std::string& in, const std::string& out) {
    return "13,0,4294967295," + std::to_string(taskId) +
           ",2,aclnnAdd_AddAiCore_Add,Add,dynamic,AI_VECTOR_CORE,1764246877080100.000\t,30.000,1.000000,40,0,NO,"
           "\"\"\"" + in + ";" + in + "\"\"\",DT_BF16;DT_BF16,ND;ND,\"\"\"" + out + "\"\"\",DT_BF16,ND,N/A," +
           kAivZeroAic + "4.0,264000,1.0,0.25,0.4,0.1,3.0,0.75,2.0,0.5,0.01,0.000\n";
}

// Row 0 writes a 1024×1024 tensor; row 1 is the same kernel reading two tensors of that shape
// (both produced by row 0); row 2 reads 512×1024 tensors no kernel before it wrote.
std::string producerProfile() {
    std::string text = kHeader83;
    text += addRow(1, "1024,1024", "1024,1024");
    text += addRow(2, "1024,1024", "1024,1024");
    text += addRow(3, "512,1024", "512,1024");
    return text;
}

TEST(ProducerInputs, AnInputCountsWhenARecentOutputHasItsShapeDtypeAndFormat) {
    RealProfile profile;
    auto row = [](const std::string& in, const std::string& out, const std::string& format = "ND") {
        RealKernel k;
        k.type = "Add";
        k.inputShapes = in + ";";  // a tensor and a scalar: the scalar never counts
        k.inputDtypes = "DT_BF16;DT_BF16";
        k.inputFormats = format + ";ND";
        k.outputShapes = out;
        k.outputDtypes = "DT_BF16";
        k.outputFormats = "ND";
        return k;
    };
    profile.kernels = {row("8,8", "4,4"), row("4,4", "5,5"), row("4,4", "6,6", "FRACTAL_NZ"),
                       row("9,9", "7,7"), row("4,4", "1,1"), row("7,7", "2,2")};
    const auto produced = producedInputs(profile, 0);
    ASSERT_EQ(produced.size(), 6u);
    EXPECT_TRUE(produced[0].empty());                     // nothing before it
    EXPECT_EQ(produced[1], std::vector<std::size_t>{0});  // row 0 wrote 4,4 bf16 ND
    EXPECT_TRUE(produced[2].empty());                     // same shape, a private layout
    EXPECT_TRUE(produced[3].empty());                     // 9,9 never written
    EXPECT_TRUE(produced[4].empty());                     // row 0 wrote 4,4 but is 4 launches back
    EXPECT_EQ(produced[5], std::vector<std::size_t>{0});  // row 3 wrote 7,7 two launches back
}

// A tensor the newest writer left behind counts only while the bytes moved since (all streams)
// and the tensor itself fit the L2: a large kernel in between pushes it out.
TEST(ProducerInputs, AnInputPushedOutOfL2ByTheKernelsBetweenIsNotProduced) {
    auto row = [](const std::string& in, const std::string& out, const std::string& stream) {
        RealKernel k;
        k.type = "Add";
        k.stream = stream;
        k.inputShapes = in;
        k.inputDtypes = "FLOAT";
        k.inputFormats = "ND";
        k.outputShapes = out;
        k.outputDtypes = "FLOAT";
        k.outputFormats = "ND";
        return k;
    };
    RealProfile profile;
    // Row 0 writes 1 KiB [256]; row 1 (another stream) moves 2 x 64 KiB; rows 2 and 3 read [256].
    profile.kernels = {row("16", "256", "1"), row("16384", "16384", "2"), row("256", "8", "1"),
                       row("256", "9", "1")};
    const auto big = producedInputs(profile, 1 << 20);
    EXPECT_EQ(big[2], std::vector<std::size_t>{0});  // 128 KiB + 1 KiB fit 1 MiB
    EXPECT_EQ(big[3], std::vector<std::size_t>{0});
    const auto small = producedInputs(profile, 64 << 10);
    EXPECT_TRUE(small[2].empty());  // 129 KiB moved since row 0 wrote it: evicted from 64 KiB
    EXPECT_TRUE(small[3].empty());
    EXPECT_EQ(producedInputs(profile, 0)[2], std::vector<std::size_t>{0});  // 0: no capacity test
}

TEST(ReplayProducerL2, AProducedInputIsTimedInL2AndAnUnproducedOneCold) {
    const auto root = testing_scratch::scratchDir("replay_producer");
    ReplayOptions options;
    options.profileDir = textProfile(root, "p", producerProfile()).string();
    options.configDir = defaultConfigDir();
    options.l2 = "cold";
    PreparedReplay cold = prepareReplay(options);
    runReplay(cold, cold.chip, false);
    options.l2 = "producer";
    PreparedReplay producer = prepareReplay(options);
    runReplay(producer, producer.chip, false);
    // Every row runs the one Add binary: rows 1 and 2 find its code resident (code_residency.h),
    // so even cold row 1 is a kernel of its own. Producer: the key also holds the resident inputs.
    ASSERT_EQ(cold.report.kernels.size(), 3u);
    ASSERT_EQ(producer.report.kernels.size(), 3u);
    const auto& first = producer.report.kernels[0];
    const auto& second = producer.report.kernels[1];
    const auto& other = producer.report.kernels[2];
    EXPECT_TRUE(first.residentInputs.empty());
    EXPECT_EQ(second.residentInputs, (std::vector<std::size_t>{0, 1}));
    EXPECT_TRUE(other.residentInputs.empty());
    ASSERT_TRUE(first.simulated && second.simulated && other.simulated);
    ASSERT_TRUE(cold.report.kernels[0].simulated && cold.report.kernels[1].simulated &&
                cold.report.kernels[2].simulated);
    // No input resident: exactly the cold timing.
    EXPECT_DOUBLE_EQ(first.simulated->durationUs, cold.report.kernels[0].simulated->durationUs);
    EXPECT_DOUBLE_EQ(other.simulated->durationUs, cold.report.kernels[2].simulated->durationUs);
    // Both 2 MiB inputs in L2: the same Add (code resident in both) runs faster than cold.
    EXPECT_LT(second.simulated->durationUs, 0.9 * cold.report.kernels[1].simulated->durationUs);
    fs::remove_all(root);
}

}  // namespace
}  // namespace ascendsim
