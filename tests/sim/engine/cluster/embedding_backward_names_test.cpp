// The Llama workload's embedding backward carries the names a real torch_npu run gives it: one
// aclnnEmbeddingDenseBackward call whose kernels are named after it, the MemSet after the
// EmbeddingDenseGradV2 it clears, the Ascend C kernel by its type alone.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/config/chip_config_loader.h"
#include "sim/config/shipped_configs.h"
#include "sim/engine/device/kernel_naming.h"
#include "sim/engine/device/lowered_workload.h"
#include "sim/workload/workload.h"
#include "sim/workload/workload_test_support.h"

namespace ascendsim {
namespace {

TEST(EmbeddingBackwardNames, LlamaFirstStageNamesItsKernelsAsTheRealSample) {
    const Workload stage0 =
        loadWorkload(testing::sourcePath("workloads/llama_tp_pp_dp.yaml"), WorkloadOverrides{{"layers=1", "dp=1"}, 0});
    const ChipConfig chip = loadChipByName("Ascend910B3", shippedConfigDir());
    const LoweredWorkload lowered(stage0, chip);
    std::vector<std::string> names;
    for (const LoweredOp& op : lowered.ops()) {
        if (op.source->framework.atenName != "aten::embedding_dense_backward" ||
            op.source->name.rfind("microbatches.1.", 0) != 0)
            continue;
        EXPECT_EQ(op.npuOpName, "aclnnEmbeddingDenseBackward") << op.source->name;
        names.insert(names.end(), op.kernelNames.begin(), op.kernelNames.end());
    }
    // [D] ef63bc64 level2 rank_0 kernel_details.csv rows 1392-1397, in order.
    EXPECT_EQ(names, (std::vector<std::string>{
                         "aclnnEmbeddingDenseBackward_CastAiCore_Cast",
                         "aclnnEmbeddingDenseBackward_CastAiCore_Cast",
                         "aclnnEmbeddingDenseBackward_SortAiCore_Sort",
                         "aclnnEmbeddingDenseBackward_EmbeddingDenseGradV2_MemSet",
                         "aclnnEmbeddingDenseBackward_EmbeddingDenseGradV2_EmbeddingDenseGradV2",
                         "aclnnEmbeddingDenseBackward_CastAiCore_Cast",
                     }));
}

TEST(EmbeddingBackwardNames, OtherOpsKeepTheirTypesAclnnNames) {
    EXPECT_EQ(aclnnNameForAten("aten::to"), "");
    EXPECT_EQ(kernelNameFor(npuOpNameFor("Cast"), "Cast", TaskType::AiVectorCore, ""), "aclnnCast_CastAiCore_Cast");
    // A MemSet outside an aclnn call with an owner keeps its own binary name.
    EXPECT_EQ(kernelBinaryFor("MemSet", TaskType::AiVectorCore, ""), "MemSetAiCore");
}

}  // namespace
}  // namespace ascendsim
