#pragma once
// Pipeline-parallel stages that run micro-batches in Megatron-LM's 1F1B schedule
// (forward_backward_pipelining_without_interleaving): warm-up forwards, steady
// one-forward-one-backward, cool-down backwards, with the activations sent to the next stage and
// their gradients back to the previous one (docs/workload-format.md §9.2).
#include <cstdint>
#include <string>
#include <vector>

namespace ascendsim {

// The workload's `pipeline:` block, read for one stage.
struct PipelineSchedule {
    bool declared = false;
    std::uint32_t microBatches = 1;
    std::string forwardBlock;   // input: the previous stage's activation; output: the next one's
    std::string backwardBlock;  // input: the output's gradient; output: the input's
    std::uint32_t stage = 0;    // the stage this workload was loaded for
    std::uint32_t stages = 1;   // parallel.pp
    // Megatron's batch_p2p_comm (its default): every p2p call is one batch_isend_irecv, run by
    // HCCL as one hcom_batchSendRecv_ ([D] ef63bc64 level2: rank 0 of a PP2 run with 2
    // micro-batches has 3 per step: send_forward, send_forward_recv_backward, recv_backward).
    // Off: each transfer is its own HcomSend / HcomReceive (dist.isend / dist.irecv).
    bool batchP2p = false;
};

enum class PipelineStepKind : std::uint8_t {
    RecvForward,   // the activation from the previous stage
    Forward,
    SendForward,   // the activation to the next stage
    RecvBackward,  // the output gradient from the next stage
    Backward,
    SendBackward,  // the input gradient to the previous stage
};

struct PipelineStep {
    PipelineStepKind kind;
    std::uint32_t microBatch;
    // This transfer and the next step are one call of Megatron's p2p layer to the same
    // neighbour: send_forward_recv_backward (SendForward, RecvBackward) or
    // send_backward_recv_forward (RecvForward, SendBackward). With batch_p2p_comm on, such a call
    // is one torch.distributed.batch_isend_irecv (PipelineSchedule::batchP2p).
    bool callWithNext = false;
    bool operator==(const PipelineStep&) const = default;
};

// Stage `stage` of `stages` with `microBatches` micro-batches, in the order Megatron's 1F1B loop
// issues the work: warm-up min(stages - stage - 1, M) forwards, then forward/backward pairs, then
// the cool-down backwards. Transfers to a missing neighbour (the first stage's previous, the last
// stage's next) are left out. Inside the two-transfer calls Megatron's _p2p_ops sends to the next
// stage before it receives from it, and receives from the previous stage before it sends to it
// (for either parity of the stage), so neighbours' transfers pair up in the same order. The two
// transfers of one call are marked (PipelineStep::callWithNext on the first): a stage's calls to a
// neighbour pair up with that neighbour's calls to it, one for one.
std::vector<PipelineStep> oneForwardOneBackward(std::uint32_t stage, std::uint32_t stages,
                                                std::uint32_t microBatches);

}  // namespace ascendsim
