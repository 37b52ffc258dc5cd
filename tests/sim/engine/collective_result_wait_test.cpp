// When the compute stream waits for a collective: before the first op that reads its result
// (workloads/unit/tp_overlap.yaml, docs/workload-format.md §9 "Ordering"). Megatron's forward
// tensor-parallel all-reduce is synchronous (the next op waits); its backward input-gradient
// all-reduce runs beside the weight-gradient GEMM, and the op after that waits for it.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/engine/rank_directories_run.h"

namespace ascendsim::e2e {
namespace {

struct Span {
    std::string type;
    double startUs = 0.0;
    double endUs = 0.0;
};

class CollectiveResultWait : public RankDirectoriesRun {
  protected:
    static void SetUpTestSuite() { runWorkload("tp_overlap.yaml"); }

    // Rank 0's kernel_details rows (kernels and the hcom ops) in start order.
    static std::vector<Span> spans() {
        const CsvTable table = readCsv(output(0) / "kernel_details.csv");
        std::vector<Span> out;
        for (std::size_t r = 0; r < table.rows.size(); ++r) {
            const double start = numberCell(table.cell(r, "Start Time(us)"));
            out.push_back({table.cell(r, "Type"), start, start + numberCell(table.cell(r, "Duration(us)"))});
        }
        return out;
    }
};

TEST_F(CollectiveResultWait, TheOpAfterASynchronousAllReduceStartsWhenItEnds) {
    const std::vector<Span> s = spans();
    ASSERT_EQ(s.size(), 7u);
    ASSERT_EQ(s[1].type, "hcom_allReduce_");
    ASSERT_EQ(s[2].type, "Mul");  // activation reads the all-reduced y_sum
    EXPECT_GE(s[2].startUs, s[1].endUs);
}

TEST_F(CollectiveResultWait, TheWeightGradientRunsBesideTheInputGradientsAllReduce) {
    const std::vector<Span> s = spans();
    ASSERT_EQ(s.size(), 7u);
    ASSERT_EQ(s[4].type, "hcom_allReduce_");
    ASSERT_EQ(s[5].type, "MatMul");  // grad_weight does not read dx_sum
    EXPECT_LT(s[5].startUs, s[4].endUs);
    EXPECT_GT(s[5].startUs, s[4].startUs);
    ASSERT_EQ(s[6].type, "Mul");  // grad_next reads dx_sum
    EXPECT_GE(s[6].startUs, s[4].endUs);
    EXPECT_GE(s[6].startUs, s[5].endUs);
}

}  // namespace
}  // namespace ascendsim::e2e
