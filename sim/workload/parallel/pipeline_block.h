#pragma once
// Reading the workload's `pipeline:` block and expanding one stage's 1F1B schedule into ops
// (docs/workload-format.md §9.2). Every stage runs the same two blocks; a workload tells the
// stages apart with the parameters pp_stage, pp_first and pp_last (e.g. `when: $pp_first` on the
// embedding).
#include <cstdint>
#include <vector>

#include "sim/workload/block_expander.h"
#include "sim/workload/parallel/pipeline_schedule.h"
#include "sim/workload/yaml_reader.h"

namespace ascendsim {

// Checks the keys, the blocks and the micro-batch count. Throws WorkloadError naming the field.
PipelineSchedule readPipelineBlock(const YamlReader& reader, const YAML::Node& node,
                                   const BlockExpander& expander, const ParameterValues& parameters,
                                   std::uint32_t stage, std::uint32_t stages);

// Appends the stage's schedule: the transfer buffers (pipeline.recv_buffer, and the first stage's
// pipeline.first_stage_input / the last stage's pipeline.loss_grad, all of `activation`'s shape),
// then per step of oneForwardOneBackward the block instance (prefix microbatches.<i>; the block's
// `micro_batch` and `last_micro_batch` parameters get the micro-batch, the backward block's
// `forward_input` the name of its forward's input, when the block declares them) or
// an HcomSend / HcomReceive over the `pp` group (Megatron's p2p with batch_p2p_comm off).
void expandPipeline(const PipelineSchedule& schedule, const YamlReader& reader, const YAML::Node& node,
                    const BlockExpander& expander, const ExpansionScope& top,
                    std::vector<WorkloadTensor>& tensors, std::vector<WorkloadOp>& ops);

}  // namespace ascendsim
