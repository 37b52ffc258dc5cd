#include "sim/workload/parallel/pipeline_block.h"

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

}  // namespace

PipelineSchedule readPipelineBlock(const YamlReader& reader, const YAML::Node& node,
                                   const BlockExpander& expander, const ParameterValues& parameters,
                                   std::uint32_t stage, std::uint32_t stages) {
    reader.requireMap(node, "pipeline");
    reader.requireKnownKeys(node, {"schedule", "micro_batches", "forward", "backward", "activation"}, "pipeline");
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
    for (const PipelineStep& step : oneForwardOneBackward(schedule.stage, schedule.stages, m)) {
        const std::uint32_t i = step.microBatch;
        const std::string mb = microBatchName(i);
        switch (step.kind) {
            case PipelineStepKind::RecvForward:
                transfer(transferEntry(mb + ".recv_forward", false, "pipeline.recv_buffer", mb + ".input_activation",
                                       schedule.stage - 1, false),
                         "pipeline");
                break;
            case PipelineStepKind::Forward:
                forwardIn[i] = first ? "pipeline.first_stage_input" : mb + ".input_activation";
                forwardOut[i] = block(schedule.forwardBlock, i, forwardIn[i], false);
                break;
            case PipelineStepKind::SendForward:
                transfer(transferEntry(mb + ".send_forward", true, forwardOut[i], mb + ".sent_activation",
                                       schedule.stage + 1, false),
                         "pipeline");
                break;
            case PipelineStepKind::RecvBackward:
                transfer(transferEntry(mb + ".recv_backward", false, "pipeline.recv_buffer", mb + ".output_grad",
                                       schedule.stage + 1, true),
                         "pipeline");
                break;
            case PipelineStepKind::Backward:
                backwardOut[i] = block(schedule.backwardBlock, i, last ? "pipeline.loss_grad" : mb + ".output_grad", true);
                break;
            case PipelineStepKind::SendBackward:
                transfer(transferEntry(mb + ".send_backward", true, backwardOut[i], mb + ".sent_grad",
                                       schedule.stage - 1, true),
                         "pipeline");
                break;
        }
    }
}

}  // namespace ascendsim
