#pragma once
// record_op_args=True: the operator-information files of {dir}_op_args/ (issue 14 item 5).
// torch_npu starts CANN's op-info recording with aclopStartDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS,
// "{ascend_pt dir}_op_args") when the profiler starts and stops it when it stops
// (Ascend/pytorch torch_npu/csrc/profiler/profiler_mgr.cpp). CANN's aclnn layer records each
// operator it tiles and, on stop, writes one JSON file per distinct record (hicann/opbase
// src/nnopbase/common/op_info_record/op_info_serialize.cpp, tiling_context_to_json.cpp):
//
//   {pid}/{OpType}_{first input: dtype}_{format}_{dims joined by _}_{n}.json   the AOE white list
//   {pid}_opcompile/...                                                        all but a black list
//   {pid}_debug/...                                                            every operator
//
// Each file is nlohmann's dump(2) of {"attrs", "deterministic", "impl_mode", "inputs", "op_type",
// "outputs", "tune_mode"} (keys sorted); a tensor is {"dtype", "format", "index", "name",
// "origin_format", "origin_shape", "param_type", "shape", "value_depend"}. The records of one
// stop are a std::set<nlohmann::json>, so duplicates collapse and `n` counts in that set's
// order, per folder kind, across the whole process (the counters are function statics).
// What ascendsim cannot know is an assumption (docs/output-formats.md "record_op_args").
#include <cstdint>
#include <map>
#include <string>

#include "profiler/record/run_record.h"

namespace ascendsim {

// The per-process file counters, carried from one profiling cycle to the next.
struct OpArgsCounters {
    std::uint32_t opInfo = 0;
    std::uint32_t opCompile = 0;
    std::uint32_t debug = 0;
};

// Relative path ("{pid}/MatMulV2_float16_ND_64_128_0.json") -> file text for the AI Core and
// vector kernels of one cycle; AI CPU kernels are not tiled by aclnn and are not recorded.
std::map<std::string, std::string> opArgsFiles(const RunRecord& cycleRun, OpArgsCounters& counters);

}  // namespace ascendsim
