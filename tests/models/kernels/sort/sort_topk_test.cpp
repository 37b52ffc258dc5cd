// Sort, TopKV2 and TopKD (models/kernels/sort/sort_merge.cpp): the programs' region sorts and
// 4-way merge passes per row on split (Sort32, 8 B records) and coupled (vrpsort16, 16 B
// proposals) chips, the rows' split over blocks, and the shapes and dtypes the kernels refuse.
// Timing-only kernels: the merges are emitted as sort-class instructions over the record bytes,
// so the values they leave are not checked here (docs/op-catalog.md).
#include <gtest/gtest.h>

#include "tests/models/kernels/vector_test_support.h"

namespace ascendsim::test {
namespace {

struct SortCounts {
    std::uint64_t sortRepeats = 0, sortInstructions = 0, loads = 0, stores = 0;
    std::uint64_t bitSorts = 0;  // of sortInstructions, the split chips' region sorts (vbitsort)
};

bool isSortStep(const VectorInstr& v) { return v.op == VectorOp::Sort || v.op == VectorOp::BitSort; }

// The program of one block, flattened.
std::vector<Instruction> programOf(const LoweredKernel& kernel, std::uint32_t block, CoreKind kind) {
    std::vector<Instruction> all, chunk;
    auto stream = kernel.program({block, kind, 0});
    while (stream->next(chunk)) {
        all.insert(all.end(), chunk.begin(), chunk.end());
        chunk.clear();
    }
    return all;
}

SortCounts countSort(const LoweredKernel& kernel, std::uint32_t block, CoreKind kind) {
    SortCounts counts;
    auto stream = kernel.program({block, kind, 0});
    std::vector<Instruction> chunk;
    while (stream->next(chunk)) {
        for (const auto& instruction : chunk) {
            if (const auto* v = std::get_if<VectorInstr>(&instruction.operands); v && isSortStep(*v)) {
                counts.sortRepeats += v->repeats;
                ++counts.sortInstructions;
                counts.bitSorts += v->op == VectorOp::BitSort;
            }
            if (const auto* m = std::get_if<DataMove>(&instruction.operands)) {
                counts.loads += m->src == MemSpace::GM;
                counts.stores += m->dst == MemSpace::GM;
            }
        }
        chunk.clear();
    }
    return counts;
}

TensorInfo tensorOf(std::vector<std::int64_t> shape, DataType dtype, std::uint64_t addr) {
    TensorInfo t;
    t.shape = std::move(shape);
    t.dtype = dtype;
    t.deviceAddr = addr;
    return t;
}

OpInstance topK(const std::string& type, std::int64_t rows, std::int64_t length, std::int64_t k, DataType dtype) {
    std::vector<TensorInfo> inputs{tensorOf({rows, length}, dtype, 1 << 20)};
    if (type == "TopKD") inputs.push_back(tensorOf({2048}, DataType::Fp16, 4 << 20));
    return makeOp(type, inputs, {tensorOf({rows, k}, dtype, 8 << 20), tensorOf({rows, k}, DataType::Int32, 9 << 20)});
}

TEST(VectorSort, SplitChipSortsRegionsOf32ThenMergesFourWays) {
    // Sort of 4096 fp32: 128 regions of 32 records (8 B: one 256 B repeat each), then
    // 128 → 32 → 8 → 2 → 1 lists: 4 merge passes of 4096 · 8 B / 256 B = 128 repeats.
    auto op = makeOp("Sort", {tensorOf({4096}, DataType::Fp32, 1 << 20)},
                     {tensorOf({4096}, DataType::Fp32, 2 << 20), tensorOf({4096}, DataType::Int32, 3 << 20)});
    op.blockDim = 1;
    const auto kernels = KernelRegistry::instance().lower(op, ascend910B1());
    ASSERT_EQ(kernels.size(), 1u);
    EXPECT_EQ(kernels[0].type, TaskType::AiVectorCore);
    const SortCounts c = countSort(kernels[0], 0, CoreKind::Vector);
    EXPECT_EQ(c.sortRepeats, 5u * 128u);
    EXPECT_EQ(c.loads, 1u);
    EXPECT_EQ(c.stores, 2u);  // values and indices
}

TEST(VectorSort, TopKV2PadsTheRowToWholeRegionsAndSplitsRowsOverBlocks) {
    // [32, 1000] fp32, k = 5 (the AlexNet sample's TopKV2): 1024 records → 32 regions → 8 → 2 → 1:
    // 1 + 3 passes of 32 repeats per row; block dim 16 gives every block 2 rows.
    auto op = topK("TopKV2", 32, 1000, 5, DataType::Fp32);
    op.blockDim = 16;
    const auto kernels = KernelRegistry::instance().lower(op, ascend910B1());
    ASSERT_EQ(kernels.size(), 1u);
    EXPECT_EQ(kernels[0].blockDim, 16u);
    for (std::uint32_t block : {0u, 15u}) {
        const SortCounts c = countSort(kernels[0], block, CoreKind::Vector);
        EXPECT_EQ(c.sortRepeats, 2u * 4u * 32u) << "block " << block;
        EXPECT_EQ(c.loads, 2u);
        EXPECT_EQ(c.stores, 4u);
    }
    // fp16 scores are cast to fp32 records: the same record count.
    auto half = topK("TopKV2", 32, 1000, 5, DataType::Fp16);
    half.blockDim = 16;
    EXPECT_EQ(countSort(KernelRegistry::instance().lower(half, ascend910B1())[0], 0, CoreKind::Vector).sortRepeats,
              2u * 4u * 32u);
}

TEST(VectorSort, CoupledChipSortsProposalsOf16AndLoadsTheAssistOnce) {
    // TopKD [32, 1000] fp16, k = 5 on a 910A-like chip (the c1e639ee sample's TopKD): 1008
    // proposals of 16 B → 63 regions → 16 → 4 → 1: 1 + 3 passes of 63 repeats per row, one block.
    auto op = topK("TopKD", 32, 1000, 5, DataType::Fp16);
    op.blockDim = 1;
    const auto kernels = KernelRegistry::instance().lower(op, coupledChip());
    ASSERT_EQ(kernels.size(), 1u);
    EXPECT_EQ(kernels[0].type, TaskType::AiCore);
    const SortCounts c = countSort(kernels[0], 0, CoreKind::Cube);
    EXPECT_EQ(c.sortRepeats, 32u * 4u * 63u);
    EXPECT_EQ(c.loads, 32u + 1u);  // the rows and the assist tensor once
    EXPECT_EQ(c.stores, 64u);
}

TEST(VectorSort, SplitChipsRegionSortIsOneVbitsortARowAndEveryStepIsFenced) {
    // TopKV2 [32, 1000] fp32 on the 910B1, 2 rows a block (docs/fidelity.md §109): per row the
    // −inf pad, one vbitsort of 32 repeats, three vmrgsort passes and the extract, each step after
    // the pad behind a PipeBarrier<PIPE_V> (it reads what the step before wrote).
    auto op = topK("TopKV2", 32, 1000, 5, DataType::Fp32);
    op.blockDim = 16;
    const std::vector<Instruction> program = programOf(KernelRegistry::instance().lower(op, ascend910B1())[0], 0,
                                                       CoreKind::Vector);
    std::vector<std::string> steps;  // the vector pipe's instructions of the first row, in order
    for (const Instruction& instruction : program) {
        if (instruction.opcode == Opcode::Barrier && instruction.pipe == Pipe::Vector) steps.push_back("barrier");
        if (const auto* v = std::get_if<VectorInstr>(&instruction.operands); v && v->dtype == DataType::Fp32)
            steps.push_back(vectorOpName(v->op));
        if (steps.size() == 11) break;
    }
    EXPECT_EQ(steps, (std::vector<std::string>{"vdup", "barrier", "vbitsort", "barrier", "vmrgsort", "barrier",
                                               "vmrgsort", "barrier", "vmrgsort", "barrier", "vcopy"}));
    const SortCounts c = countSort(KernelRegistry::instance().lower(op, ascend910B1())[0], 0, CoreKind::Vector);
    EXPECT_EQ(c.bitSorts, 2u);
    EXPECT_EQ(c.sortInstructions, 2u * 4u);
    // The coupled chip's region sort is vrpsort16, a sort-class instruction.
    auto topKD = topK("TopKD", 32, 1000, 5, DataType::Fp16);
    topKD.blockDim = 1;
    EXPECT_EQ(countSort(KernelRegistry::instance().lower(topKD, coupledChip())[0], 0, CoreKind::Cube).bitSorts, 0u);
}

TEST(VectorSort, OneElementRowsNeedNoMerge) {
    auto op = topK("TopKV2", 8, 1, 1, DataType::Fp32);
    op.blockDim = 1;
    const SortCounts c = countSort(KernelRegistry::instance().lower(op, ascend910B1())[0], 0, CoreKind::Vector);
    EXPECT_EQ(c.sortRepeats, 8u);  // one region sort per row, no merge pass
    EXPECT_EQ(c.sortInstructions, 8u);
}

TEST(VectorSort, RefusesWhatTheKernelsCannotDo) {
    const auto lower = [](const OpInstance& op, const ChipConfig& chip) { KernelRegistry::instance().lower(op, chip); };
    auto expectRefused = [&](const OpInstance& op, const ChipConfig& chip, const std::string& reason) {
        try {
            lower(op, chip);
            ADD_FAILURE() << op.type << " was not refused (" << reason << ")";
        } catch (const LoweringError& e) {
            EXPECT_NE(std::string(e.what()).find(reason), std::string::npos) << e.what();
        }
    };
    expectRefused(topK("TopKV2", 4, 100, 101, DataType::Fp32), ascend910B1(), "k must be in 1..100");
    expectRefused(topK("TopKV2", 4, 100, 5, DataType::Bf16), ascend910B1(), "x must be fp32 or fp16");
    expectRefused(topK("TopKV2", 4, 100, 5, DataType::Fp32), coupledChip(), "fp16 scores only");
    expectRefused(topK("TopKV2", 1, 100000, 5, DataType::Fp32), ascend910B1(), "UB");
    auto wrongIndices = topK("TopKV2", 4, 100, 5, DataType::Fp32);
    wrongIndices.outputs[1].dtype = DataType::Int64;
    expectRefused(wrongIndices, ascend910B1(), "indices must be int32");
    auto wrongValues = topK("TopKV2", 4, 100, 5, DataType::Fp32);
    wrongValues.outputs[0].dtype = DataType::Fp16;
    expectRefused(wrongValues, ascend910B1(), "last axis cut to k");
    auto shortIndices = topK("TopKV2", 4, 100, 5, DataType::Fp32);
    shortIndices.outputs[1].shape = {4, 4};
    expectRefused(shortIndices, ascend910B1(), "indices must have the values' shape");
    auto noAssist = topK("TopKD", 4, 100, 5, DataType::Fp16);
    noAssist.inputs.pop_back();
    expectRefused(noAssist, coupledChip(), "assist");
}

}  // namespace
}  // namespace ascendsim::test
