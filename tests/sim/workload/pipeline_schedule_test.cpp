// The 1F1B schedule of a `pipeline:` block: the order Megatron-LM's
// forward_backward_pipelining_without_interleaving issues forwards, backwards and transfers on
// each stage, and the ops the loader expands it into.
#include <gtest/gtest.h>

#include <algorithm>

#include "sim/workload/parallel/pipeline_schedule.h"
#include "sim/workload/workload.h"
#include "workload_test_support.h"

namespace ascendsim {
namespace {

using K = PipelineStepKind;

std::string text(const std::vector<PipelineStep>& steps) {
    std::string s;
    for (const PipelineStep& p : steps) {
        static const char* names[] = {"rF", "F", "sF", "rB", "B", "sB"};
        if (!s.empty()) s += ' ';
        s += names[static_cast<int>(p.kind)];
        s += std::to_string(p.microBatch);
    }
    return s;
}

TEST(PipelineSchedule, FirstStageWarmsUpWithOneForwardPerLaterStage) {
    // 4 stages, 4 micro-batches: stage 0 runs 3 warm-up forwards, one 1F1B pair, 3 cool-down
    // backwards; it never receives activations nor sends gradients.
    EXPECT_EQ(text(oneForwardOneBackward(0, 4, 4)),
              "F0 sF0 F1 sF1 F2 sF2 F3 sF3 rB0 B0 rB1 B1 rB2 B2 rB3 B3");
}

TEST(PipelineSchedule, MiddleStageReceivesBeforeItSendsBack) {
    EXPECT_EQ(text(oneForwardOneBackward(2, 4, 4)),
              "rF0 F0 sF0 rF1 F1 sF1 rB0 B0 rF2 sB0 F2 sF2 rB1 B1 rF3 sB1 F3 sF3 rB2 B2 sB2 rB3 B3 sB3");
}

TEST(PipelineSchedule, LastStageAlternatesFromTheStart) {
    EXPECT_EQ(text(oneForwardOneBackward(3, 4, 3)), "rF0 F0 B0 rF1 sB0 F1 B1 rF2 sB1 F2 B2 sB2");
}

TEST(PipelineSchedule, FewerMicroBatchesThanStagesOnlyWarmUpAndCoolDown) {
    EXPECT_EQ(text(oneForwardOneBackward(0, 4, 2)), "F0 sF0 F1 sF1 rB0 B0 rB1 B1");
}

TEST(PipelineSchedule, NeighboursTransferInTheSameOrder) {
    // What stage s sends to s+1 (activations) is what s+1 receives from s, in order; the same for
    // the gradients going back.
    for (std::uint32_t m : {1u, 3u, 4u, 8u}) {
        for (std::uint32_t s = 0; s + 1 < 4; ++s) {
            std::vector<std::uint32_t> sent, received, gradsSent, gradsReceived;
            for (const PipelineStep& p : oneForwardOneBackward(s, 4, m)) {
                if (p.kind == K::SendForward) sent.push_back(p.microBatch);
                if (p.kind == K::RecvBackward) gradsReceived.push_back(p.microBatch);
            }
            for (const PipelineStep& p : oneForwardOneBackward(s + 1, 4, m)) {
                if (p.kind == K::RecvForward) received.push_back(p.microBatch);
                if (p.kind == K::SendBackward) gradsSent.push_back(p.microBatch);
            }
            EXPECT_EQ(sent, received) << "stage " << s << ", " << m << " micro-batches";
            EXPECT_EQ(gradsSent, gradsReceived) << "stage " << s << ", " << m << " micro-batches";
            EXPECT_EQ(sent.size(), m);
        }
    }
}

// The steps with Megatron's two-transfer calls in brackets.
std::string calls(const std::vector<PipelineStep>& steps) {
    std::string s;
    bool open = false;
    for (const PipelineStep& p : steps) {
        if (!s.empty()) s += ' ';
        if (p.callWithNext) s += '[';
        s += text({p});
        if (open) s += ']';
        open = p.callWithNext;
    }
    return s;
}

TEST(PipelineSchedule, TwoTransferCallsAreMarked) {
    EXPECT_EQ(calls(oneForwardOneBackward(2, 4, 4)),
              "rF0 F0 sF0 rF1 F1 [sF1 rB0] B0 [rF2 sB0] F2 [sF2 rB1] B1 [rF3 sB1] F3 [sF3 rB2] B2 sB2 rB3 B3 sB3");
    // Fewer micro-batches than stages: no steady phase, every transfer is a call of its own (the
    // last warm-up send and the first cool-down receive go to the same stage but are two calls).
    EXPECT_EQ(calls(oneForwardOneBackward(0, 4, 2)), "F0 sF0 F1 sF1 rB0 B0 rB1 B1");
}

TEST(PipelineSchedule, NeighboursCallsPairUpOneForOne) {
    // With batch_p2p_comm each call is one batch_isend_irecv, matched with the neighbour's n-th
    // call to this stage: what one sends the other must receive in that same call.
    for (std::uint32_t m : {1u, 2u, 3u, 4u, 8u}) {
        for (std::uint32_t s = 0; s + 1 < 4; ++s) {
            // Per call to the other stage: (sends, receives).
            const auto callsTo = [&](std::uint32_t stage, bool next) {
                std::vector<std::pair<bool, bool>> out;
                const auto steps = oneForwardOneBackward(stage, 4, m);
                for (std::size_t k = 0; k < steps.size(); ++k) {
                    const K kind = steps[k].kind;
                    if (kind == K::Forward || kind == K::Backward) continue;
                    const bool toNext = kind == K::SendForward || kind == K::RecvBackward;
                    std::pair<bool, bool> c{kind == K::SendForward || kind == K::SendBackward,
                                            kind == K::RecvForward || kind == K::RecvBackward};
                    if (steps[k].callWithNext) {
                        const K second = steps[++k].kind;
                        EXPECT_EQ(toNext, second == K::SendForward || second == K::RecvBackward);
                        c.first = c.first || second == K::SendForward || second == K::SendBackward;
                        c.second = c.second || second == K::RecvForward || second == K::RecvBackward;
                        EXPECT_TRUE(c.first && c.second) << "a call of two transfers sends and receives";
                    }
                    if (toNext == next) out.push_back(c);
                }
                return out;
            };
            const auto down = callsTo(s, true), up = callsTo(s + 1, false);
            ASSERT_EQ(down.size(), up.size()) << "stage " << s << ", " << m << " micro-batches";
            for (std::size_t n = 0; n < down.size(); ++n) {
                EXPECT_EQ(down[n].first, up[n].second) << "stage " << s << " call " << n << ", " << m << " micro-batches";
                EXPECT_EQ(down[n].second, up[n].first) << "stage " << s << " call " << n << ", " << m << " micro-batches";
            }
        }
    }
}

std::vector<std::string> opNames(const Workload& w) {
    std::vector<std::string> names;
    for (const WorkloadOp& op : w.ops) names.push_back(op.name);
    return names;
}

TEST(PipelineWorkload, EachStageExpandsItsOwnScheduleWithTransfersOverThePpGroup) {
    const std::string path = testing::sourcePath("workloads/unit/pipeline_1f1b.yaml");
    EXPECT_TRUE(declaresPipeline(path));
    const Workload stage1 = loadWorkload(path, WorkloadOverrides{{}, 1});
    EXPECT_EQ(stage1.ranks, 4u);
    EXPECT_EQ(stage1.pipeline.stage, 1u);
    EXPECT_EQ(stage1.pipeline.microBatches, 4u);
    EXPECT_EQ(stage1.parameters.at("pp_first"), "0");
    const auto names = opNames(stage1);
    // Stage 1 of 4: two warm-up forwards, each received and sent on.
    ASSERT_GE(names.size(), 6u);
    EXPECT_EQ(names[0], "microbatches.0.recv_forward");
    EXPECT_EQ(names[1], "microbatches.0.fc1");
    EXPECT_EQ(names[2], "microbatches.0.fc2");
    EXPECT_EQ(names[3], "microbatches.0.send_forward");
    const WorkloadOp* recv = stage1.findOp("microbatches.0.recv_forward");
    ASSERT_NE(recv, nullptr);
    EXPECT_EQ(recv->type, "HcomReceive");
    EXPECT_EQ(std::get<std::string>(recv->attrs.at("group")), "pp");
    EXPECT_EQ(std::get<std::int64_t>(recv->attrs.at("peer")), 0);
    const WorkloadOp* sendBack = stage1.findOp("microbatches.3.send_backward");
    ASSERT_NE(sendBack, nullptr);
    EXPECT_EQ(std::get<std::int64_t>(sendBack->attrs.at("peer")), 0);
    EXPECT_EQ(sendBack->framework.phase, OpPhase::Backward);
    // The backward's weight gradient reads its own micro-batch's forward input.
    const WorkloadOp* wgrad = stage1.findOp("microbatches.2.fc1.grad_weight");
    ASSERT_NE(wgrad, nullptr);
    EXPECT_EQ(wgrad->inputs[1], "microbatches.2.input_activation");
    // The optimizer runs after the pipeline.
    EXPECT_EQ(names.back(), "update2");
    // The first stage reads its own input and receives no activation.
    const Workload stage0 = loadWorkload(path, WorkloadOverrides{{}, 0});
    EXPECT_EQ(stage0.findOp("microbatches.0.recv_forward"), nullptr);
    EXPECT_EQ(stage0.findOp("microbatches.0.fc1")->inputs[0], "pipeline.first_stage_input");
    EXPECT_EQ(stage0.findOp("microbatches.0.fc2.grad_input")->inputs[0], "microbatches.0.output_grad");
    // The last stage's backward starts from the loss gradient.
    const Workload stage3 = loadWorkload(path, WorkloadOverrides{{}, 3});
    EXPECT_EQ(stage3.findOp("microbatches.0.fc2.grad_input")->inputs[0], "pipeline.loss_grad");
    EXPECT_EQ(stage3.findOp("microbatches.0.send_forward"), nullptr);
}

TEST(PipelineWorkload, BatchP2pCommRunsEachCallAsOneBatchSendRecv) {
    const std::string path = testing::sourcePath("workloads/unit/pipeline_1f1b.yaml");
    const Workload stage1 = loadWorkload(path, WorkloadOverrides{{"batch_p2p=1"}, 1});
    EXPECT_TRUE(stage1.pipeline.batchP2p);
    std::size_t batches = 0;
    for (const WorkloadOp& op : stage1.ops) {
        EXPECT_NE(op.type, "HcomSend") << op.name;
        EXPECT_NE(op.type, "HcomReceive") << op.name;
        batches += op.type == "HcomBatchSendRecv";
    }
    // Stage 1 of 4, 4 micro-batches: 16 transfers, of which 2 send_forward_recv_backward and 1
    // send_backward_recv_forward pairs: 13 calls.
    EXPECT_EQ(batches, 13u);
    const auto ints = [](const WorkloadOp* op, const char* key) { return std::get<std::vector<std::int64_t>>(op->attrs.at(key)); };
    // The warm-up's receive alone: from stage 0 into the receive buffer.
    const WorkloadOp* recv = stage1.findOp("microbatches.0.recv_forward");
    ASSERT_NE(recv, nullptr);
    EXPECT_EQ(recv->type, "HcomBatchSendRecv");
    EXPECT_TRUE(ints(recv, "send_to").empty());
    EXPECT_EQ(ints(recv, "recv_from"), std::vector<std::int64_t>{0});
    EXPECT_EQ(recv->inputs[0], "pipeline.recv_buffer");
    EXPECT_EQ(recv->outputs[0], "microbatches.0.input_activation");
    // The steady phase's pair with stage 2: micro-batch 2's activation out, 0's gradient in.
    const WorkloadOp* pair = stage1.findOp("microbatches.2.send_forward_recv_backward");
    ASSERT_NE(pair, nullptr);
    EXPECT_EQ(ints(pair, "send_to"), std::vector<std::int64_t>{2});
    EXPECT_EQ(ints(pair, "recv_from"), std::vector<std::int64_t>{2});
    EXPECT_EQ(pair->outputs[0], "microbatches.0.output_grad");
    EXPECT_EQ(stage1.findOp("microbatches.0.fc2.grad_input")->inputs[0], "microbatches.0.output_grad");
    // Without batch_p2p_comm the same stage keeps its separate sends and receives.
    EXPECT_FALSE(loadWorkload(path, WorkloadOverrides{{}, 1}).pipeline.batchP2p);
}

TEST(PipelineWorkload, LlamaFirstStageRunsTheEmbeddingBackwardAndBatchedP2p) {
    // workloads/llama_tp_pp_dp.yaml, stage 0 with one layer: each micro-batch's backward ends with
    // aclnnEmbeddingDenseBackward's kernels (ef63bc64 level2 rank 0) and the main-grad Add.
    const std::string path = testing::sourcePath("workloads/llama_tp_pp_dp.yaml");
    const Workload stage0 = loadWorkload(path, WorkloadOverrides{{"layers=1", "dp=1"}, 0});
    EXPECT_TRUE(stage0.pipeline.batchP2p);
    std::vector<std::string> types;
    for (const WorkloadOp& op : stage0.ops)
        if (op.name.rfind("microbatches.1.embedding.", 0) == 0 && op.framework.phase == OpPhase::Backward)
            types.push_back(op.type);
    EXPECT_EQ(types,
              (std::vector<std::string>{"Cast", "Cast", "Sort", "MemSet", "EmbeddingDenseGradV2", "Cast", "Add"}));
    // The sample's second Cast: the int64 token ids to int32.
    const WorkloadOp* ids = stage0.findOp("microbatches.1.embedding.ids_int32");
    ASSERT_NE(ids, nullptr);
    EXPECT_EQ(ids->inputs[0], "tokens");
    const WorkloadOp* grad = stage0.findOp("microbatches.1.embedding.dense_grad");
    ASSERT_NE(grad, nullptr);
    EXPECT_EQ(grad->outputs[0], "embedding.grad_table");
    EXPECT_EQ(std::get<std::int64_t>(grad->attrs.at("num_weights")), 4000);
    EXPECT_EQ(stage0.findOp("microbatches.1.embedding.acc.add")->outputs[0], "embedding.main_grad");
    // Its transfers are batches; the last stage has no embedding backward.
    for (const WorkloadOp& op : stage0.ops) EXPECT_NE(op.type, "HcomSend") << op.name;
    EXPECT_NE(stage0.findOp("microbatches.3.send_forward_recv_backward"), nullptr);
    const Workload stage3 = loadWorkload(path, WorkloadOverrides{{"layers=1", "dp=1"}, 3});
    EXPECT_EQ(stage3.findOp("microbatches.1.embedding.dense_grad"), nullptr);
}

// The field a workload with this `pipeline:` line fails on (its line is the file's third).
std::string failingField(const std::string& name, const std::string& pipelineLine) {
    const std::string path = testing::writeTempYaml(name, "name: bad\nparallel: {pp: 2}\n" + pipelineLine + R"(
blocks:
  f: {inputs: [x], outputs: [y], ops: [{name: r, type: Relu, inputs: [x], outputs: [y]}]}
ops:
  - {name: a, type: Relu, inputs: [x], outputs: [y]}
tensors:
  - {name: x, shape: [4], dtype: fp16, kind: input}
)");
    try {
        loadWorkload(path);
    } catch (const WorkloadError& e) {
        EXPECT_EQ(e.where().line, 3);
        return e.field();
    }
    return "(loaded)";
}

TEST(PipelineWorkload, BadBlocksNameTheirField) {
    EXPECT_EQ(failingField("pipeline_bad.yaml",
                           "pipeline: {micro_batches: 2, forward: nowhere, backward: f, activation: {shape: [4]}}"),
              "pipeline.forward");
    EXPECT_EQ(failingField("pipeline_zero.yaml",
                           "pipeline: {micro_batches: 0, forward: f, backward: f, activation: {shape: [4]}}"),
              "pipeline.micro_batches");
    EXPECT_EQ(failingField("pipeline_schedule.yaml",
                           "pipeline: {schedule: GPipe, micro_batches: 2, forward: f, backward: f, activation: {shape: [4]}}"),
              "pipeline.schedule");
    EXPECT_EQ(failingField("pipeline_batch.yaml",
                           "pipeline: {micro_batches: 2, forward: f, backward: f, activation: {shape: [4]}, batch_p2p_comm: 2}"),
              "pipeline.batch_p2p_comm");
}

}  // namespace
}  // namespace ascendsim
