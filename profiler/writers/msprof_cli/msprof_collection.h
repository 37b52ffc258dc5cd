#pragma once
// What the msprof command line leaves in its --output directory (`msprof --application=...
// --output=DIR --export=on`, issue 14 item 3): one PROF_* directory per device collection, with
// no torch_npu wrapper, no FRAMEWORK/ and no ASCEND_PROFILER_OUTPUT/:
//
//   DIR/PROF_{seq}_{timestamp}_{letters}/
//     host/, device_{id}/            metadata and raw data (prof_tree.h, prof_raw/)
//     mindstudio_profiler_output/    with export on (8.x eras): msprof_{ts}.json, op_summary_{ts}.csv,
//                                    op_statistic_{ts}.csv, task_time_{ts}.csv, api_statistic_{ts}.csv,
//                                    l2_cache/aicpu when collected
//     device_{id}/timeline/, summary/  with export on in the 2023 era instead (era2023_export.h)
//
// msprof profiles the whole application, so the collection spans every simulated step.
#include <filesystem>

#include "profiler/config/profiler_config.h"
#include "profiler/record/run_record.h"

namespace ascendsim {

// Writes the PROF_* directory under `parent` and returns its path. Throws std::runtime_error when
// a file cannot be written (the caller's output transaction removes what was written).
std::filesystem::path writeMsprofCollection(const std::filesystem::path& parent, const RunRecord& run,
                                            const ProfilerConfig& config, bool exportOn);

// An E2E collection (torch_npu.npu.profile(profiler_result_path, use_e2e_profiler, config)) of
// one profiled region: aclprofInit(profiler_result_path) makes the PROF_* directory there, with
// no *_ascend_pt wrapper and no FRAMEWORK/. With use_e2e_profiler, torch_npu's E2E profiler
// reports each torch op as an MsprofTx range stamp (tag "torch_op", MSPROF_MSPROFTX_DATA_TAG;
// torch_npu's csrc/profiler/e2e_profiler.cpp, removed in Ascend/pytorch 396f14a7), so the
// framework data are the MsprofTx layer; without it there are none. ascendsim exports at once
// (device_N/timeline/ and summary/), which a real collection leaves to `msprof --export=on`.
std::filesystem::path writeE2eCollection(const std::filesystem::path& parent, const RunRecord& cycleRun,
                                         const ProfilerConfig& config);

}  // namespace ascendsim
