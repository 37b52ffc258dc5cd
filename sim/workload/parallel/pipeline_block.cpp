#include "sim/workload/parallel/pipeline_block.h"

#include <stdexcept>

namespace ascendsim {

namespace {

std::string microBatchName(std::uint32_t i) { return "microbatches." + std::to_string(i); }

YAML::Node tensorEntry(const std::string& name, const YAML::Node& activation, const char* kind) {
    YAML::Node t(YAML::NodeType::Map);
    t["name"] = name;
    t["shape"] = activation["shape"];
    if (activation["dtype"]) t["dtype"] = activation["dtype"];
    t["kind"] = kind;
    return t;
}

// HcomSend / HcomReceive to / from stage `peer` (its rank in the pp group).
YAML::Node transferEntry(const std::string& name, bool send, const std::string& in, const std::string& out,
                         std::uint32_t peer, bool backward) {
    YAML::Node op(YAML::NodeType::Map);
    op["name"] = name;
    op["type"] = send ? "HcomSend" : "HcomReceive";
    op["inputs"].push_back(in);
    op["outputs"].push_back(out);
    op["attrs"]["group"] = "pp";
    op["attrs"]["peer"] = peer;
    // assumed: torch's c10d op names of dist.isend / dist.irecv (no sample shows them).
    op["aten"] = send ? "c10d::send" : "c10d::recv_";
    op["phase"] = backward ? "backward" : "forward";
    return op;
}

// One batch_isend_irecv of Megatron's p2p layer (batch_p2p_comm on): HcomBatchSendRecv with the
// neighbour `peer`. `in` is the tensor sent (a receive alone: the buffer it fills), `out` what
// arrives (a send alone: the sent tensor, as HcomSend's output).
YAML::Node batchEntry(const std::string& name, bool sends, bool receives, const std::string& in,
                      const std::string& out, std::uint32_t peer, bool backward) {
    YAML::Node op(YAML::NodeType::Map);
    op["name"] = name;
    op["type"] = "HcomBatchSendRecv";
    op["inputs"].push_back(in);
    op["outputs"].push_back(out);
    op["attrs"]["group"] = "pp";
    op["attrs"]["send_to"] = YAML::Node(YAML::NodeType::Sequence);
    op["attrs"]["recv_from"] = YAML::Node(YAML::NodeType::Sequence);
    if (sends) op["attrs"]["send_to"].push_back(peer);
    if (receives) op["attrs"]["recv_from"].push_back(peer);
    // assumed: torch's c10d op name of dist.batch_isend_irecv (no sample's trace shows it).
    op["aten"] = "c10d::batch_isend_irecv";
    op["phase"] = backward ? "backward" : "forward";
    return op;
}

}  // namespace

PipelineSchedule readPipelineBlock(const YamlReader& reader, const YAML::Node& node,
                                   const BlockExpander& expander, const ParameterValues& parameters,
                                   std::uint32_t stage, std::uint32_t stages) {
    reader.requireMap(node, "pipeline");
    reader.requireKnownKeys(node, {"schedule", "micro_batches", "forward", "backward", "activation", "batch_p2p_comm"},
                            "pipeline");
    PipelineSchedule s;
    s.declared = true;
    s.stage = stage;
    s.stages = stages;
    if (node["schedule"] && reader.scalar(node["schedule"], "pipeline.schedule") != "1F1B")
        reader.fail(node["schedule"], "pipeline.schedule", "the only schedule is 1F1B");
    if (!node["micro_batches"]) reader.fail(node, "pipeline.micro_batches", "the pipeline needs micro_batches");
    const std::string raw = reader.scalar(node["micro_batches"], "pipeline.micro_batches");
    std::optional<std::int64_t> count;
    try {
        count = evaluateInteger(raw, parameters);
    } catch (const ExpressionError&) {
    }
    if (!count || *count < 1 || *count > 4096)
        reader.fail(node["micro_batches"], "pipeline.micro_batches",
                    "micro_batches must be an integer in 1..4096, got '" + raw + "'");
    s.microBatches = static_cast<std::uint32_t>(*count);
    if (const YAML::Node batch = node["batch_p2p_comm"]) {
        // true / false, or an expression of the parameters giving 1 or 0 (`--set batch_p2p=0`).
        const std::string text = reader.scalar(batch, "pipeline.batch_p2p_comm");
        std::optional<std::int64_t> value;
        if (text == "true" || text == "false") value = text == "true" ? 1 : 0;
        try {
            if (!value) value = evaluateInteger(text, parameters);
        } catch (const ExpressionError&) {
        }
        if (!value || (*value != 0 && *value != 1))
            reader.fail(batch, "pipeline.batch_p2p_comm", "must be true, false, 1 or 0, got '" + text + "'");
        s.batchP2p = *value == 1;
    }
    for (const char* key : {"forward", "backward"}) {
        const std::string field = std::string("pipeline.") + key;
        if (!node[key]) reader.fail(node, field, "the pipeline needs its " + std::string(key) + " block");
        const std::string block = reader.scalar(node[key], field);
        if (!expander.hasBlock(block)) reader.fail(node[key], field, "unknown block '" + block + "'");
        (std::string(key) == "forward" ? s.forwardBlock : s.backwardBlock) = block;
    }
    const YAML::Node activation = node["activation"];
    if (!activation) reader.fail(node, "pipeline.activation", "the pipeline needs the activation's shape and dtype");
    reader.requireMap(activation, "pipeline.activation");
    reader.requireKnownKeys(activation, {"shape", "dtype"}, "pipeline.activation");
    if (!activation["shape"]) reader.fail(activation, "pipeline.activation.shape", "the activation needs a shape");
    return s;
}

void expandPipeline(const PipelineSchedule& schedule, const YamlReader& reader, const YAML::Node& node,
                    const BlockExpander& expander, const ExpansionScope& top,
                    std::vector<WorkloadTensor>& tensors, std::vector<WorkloadOp>& ops) {
    (void)reader;
    const YAML::Node activation = node["activation"];
    const bool first = schedule.stage == 0, last = schedule.stage + 1 == schedule.stages;
    YAML::Node buffers(YAML::NodeType::Sequence);
    // The buffer dist.irecv fills (Megatron allocates one per receive: torch.empty).
    if (schedule.stages > 1) buffers.push_back(tensorEntry("pipeline.recv_buffer", activation, "state"));
    // The first stage's micro-batch input, the last stage's loss gradient.
    if (first) buffers.push_back(tensorEntry("pipeline.first_stage_input", activation, "input"));
    if (last) buffers.push_back(tensorEntry("pipeline.loss_grad", activation, "state"));
    expander.expandTensors(buffers, top, "pipeline.activation", tensors);

    const std::uint32_t m = schedule.microBatches;
    std::vector<std::string> forwardIn(m), forwardOut(m), backwardOut(m);
    const auto block = [&](const std::string& name, std::uint32_t i, const std::string& input, bool backward) {
        YAML::Node item(YAML::NodeType::Map);
        item["block"] = name;
        item["name"] = microBatchName(i);
        item["inputs"].push_back(input);
        if (backward) item["phase"] = "backward";
        if (expander.declaresParam(name, "micro_batch")) item["params"]["micro_batch"] = i;
        if (expander.declaresParam(name, "last_micro_batch")) item["params"]["last_micro_batch"] = i + 1 == m ? 1 : 0;
        if (backward && expander.declaresParam(name, "forward_input")) item["params"]["forward_input"] = forwardIn[i];
        const std::string field = backward ? "pipeline.backward" : "pipeline.forward";
        const std::vector<std::string> outputs = expander.expandBlock(item, top, field, tensors, ops);
        if (outputs.size() != 1)
            reader.fail(node[backward ? "backward" : "forward"], field,
                        "block '" + name + "' must have one output (what the pipeline passes on), not " +
                            std::to_string(outputs.size()));
        return outputs.front();
    };
    const auto transfer = [&](const YAML::Node& entry, const std::string& field) {
        YAML::Node list(YAML::NodeType::Sequence);
        list.push_back(entry);
        expander.expandOps(list, top, field, tensors, ops);
    };
    // A transfer step's op: its name, direction, tensors and neighbour.
    struct Transfer {
        std::string name, in, out;
        bool send = false, backward = false;
        std::uint32_t peer = 0;
    };
    const auto transferOf = [&](const PipelineStep& step) {
        const std::string mb = microBatchName(step.microBatch);
        const std::uint32_t i = step.microBatch;
        switch (step.kind) {
            case PipelineStepKind::RecvForward:
                return Transfer{mb + ".recv_forward", "pipeline.recv_buffer", mb + ".input_activation", false, false,
                                schedule.stage - 1};
            case PipelineStepKind::SendForward:
                return Transfer{mb + ".send_forward", forwardOut[i], mb + ".sent_activation", true, false,
                                schedule.stage + 1};
            case PipelineStepKind::RecvBackward:
                return Transfer{mb + ".recv_backward", "pipeline.recv_buffer", mb + ".output_grad", false, true,
                                schedule.stage + 1};
            case PipelineStepKind::SendBackward:
                return Transfer{mb + ".send_backward", backwardOut[i], mb + ".sent_grad", true, true, schedule.stage - 1};
            case PipelineStepKind::Forward:
            case PipelineStepKind::Backward:
                break;
        }
        throw std::logic_error("a compute step is not a transfer");
    };
    const std::vector<PipelineStep> steps = oneForwardOneBackward(schedule.stage, schedule.stages, m);
    for (std::size_t k = 0; k < steps.size(); ++k) {
        const PipelineStep& step = steps[k];
        const std::uint32_t i = step.microBatch;
        if (step.kind == PipelineStepKind::Forward) {
            forwardIn[i] = first ? "pipeline.first_stage_input" : microBatchName(i) + ".input_activation";
            forwardOut[i] = block(schedule.forwardBlock, i, forwardIn[i], false);
            continue;
        }
        if (step.kind == PipelineStepKind::Backward) {
            backwardOut[i] = block(schedule.backwardBlock, i, last ? "pipeline.loss_grad" : microBatchName(i) + ".output_grad",
                                   true);
            continue;
        }
        const Transfer t = transferOf(step);
        if (!schedule.batchP2p) {
            transfer(transferEntry(t.name, t.send, t.in, t.out, t.peer, t.backward), "pipeline");
            continue;
        }
        if (!step.callWithNext) {
            transfer(batchEntry(t.name, t.send, !t.send, t.in, t.out, t.peer, t.backward), "pipeline");
            continue;
        }
        // send_forward_recv_backward / send_backward_recv_forward: named by both transfers.
        const Transfer u = transferOf(steps[++k]);
        const Transfer& sent = t.send ? t : u;
        const Transfer& received = t.send ? u : t;
        transfer(batchEntry(t.name + "_" + u.name.substr(u.name.rfind('.') + 1), true, true, sent.in, received.out,
                            t.peer, t.backward),
                 "pipeline");
    }
}

}  // namespace ascendsim
