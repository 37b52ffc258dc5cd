#pragma once
// File names of the 2023 (CANN 6/7) export: PROF_*/device_{id}/{timeline,summary}/{name}_{suffix}.
//
// msprof's Python export (Ascend/msprof analysis/common_func/file_slice_helper.py,
// get_export_prefix_file_name) builds `{name}_{device_id}[_{model_id}]_{iter_id}`: the model id
// only in a graph (GE model) export. CANN 5.0.4's "导出timeline数据" page says the same: in the
// single-operator scene the name is {name}_{device_id}_{iter_id}. torch_npu eager mode (every
// ascendsim workload) is that scene. The later `_{timestamp}` suffix belongs to the
// mindstudio_profiler_output era and is not written here.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ascendsim {

// The iteration msprof exports by default (`--iteration-id`, default 1: same pages).
inline constexpr std::uint32_t kEra2023DefaultIteration = 1;

// "0_1" (single-op) or "0_1_1" (graph export with model 1).
std::string era2023FileSuffix(std::uint32_t deviceId, std::optional<std::uint32_t> modelId,
                              std::uint32_t iterationId = kEra2023DefaultIteration);

// "op_summary_0_1.csv".
std::string era2023FileName(std::string_view name, std::string_view suffix, std::string_view extension);

}  // namespace ascendsim
