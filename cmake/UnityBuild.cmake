# -DASCENDSIM_UNITY_BUILD=ON compiles each area library and each test binary as a few unity
# sources (CMake's UNITY_BUILD: N .cpp files #included into one translation unit), so the STL,
# GoogleTest and project headers are parsed, and their inline functions instrumented and
# compiled, once per batch instead of once per file. The sanitized CI tier
# (scripts/run_sanitized_tests.sh) turns it on; the normal build leaves it off, so an edit there
# recompiles one file, not its batch. Measured in docs/reliability.md ("Making it routine").
option(ASCENDSIM_UNITY_BUILD "Compile the areas and test binaries as unity sources" OFF)
# Files per unity source. Four cube test files compiled as one took 12.5 CPU-s under
# address,undefined at -Og -g1, against 25.0 s file by file. 16 still leaves a few dozen unity
# sources to keep 2 cores busy.
set(ASCENDSIM_UNITY_BATCH_SIZE 16 CACHE STRING "Source files per unity source")

# Areas compiled file by file even with the option on: their files define the same names at file
# scope (anonymous-namespace constants and helpers such as kWhat, throwLoweringError, ceilDiv in
# models/kernels, about 55 of its 91 files), and this build option must not rename model code.
set(ASCENDSIM_NOT_UNITY_AREAS ascend_kernels)
# Files that keep their own translation unit: each defines a file-scope name another file of its
# area or test binary also defines (found by compiling every area as one unity source).
set(ASCENDSIM_NOT_UNITY_FILES
  models/core/pmu_accounting.cpp
  models/functional/img2col_semantics.cpp
  models/functional/mmad_semantics.cpp
  profiler/readers/prof_raw/raw_run_rebuild.cpp
  profiler/report/html/run_report_html.cpp
  profiler/report/step_split.cpp
  profiler/writers/communication/communication_statistics.cpp
  profiler/writers/db/db_export.cpp
  profiler/writers/era2023/era2023_export.cpp
  profiler/writers/era2023/era2023_step_trace.cpp
  profiler/writers/memory/operator_memory.cpp
  profiler/writers/summary/api_statistic.cpp
  profiler/writers/summary/data_preprocess.cpp
  profiler/writers/summary/op_statistic.cpp
  profiler/writers/summary/op_summary.cpp
  profiler/writers/summary/task_time.cpp
  profiler/writers/timeline/msprof_timeline.cpp
  profiler/writers/timeline/trace_view.cpp
  profiler/writers/tree/prof_tree_info.cpp
  sim/replay/rules/replay_op_rules_cube.cpp
  sim/replay/run/kernel_replay.cpp
  sim/workload/op_reader.cpp
  sim/workload/schema/op_schema_transformer.cpp
  tests/cli/msprof_command_test.cpp
  tests/cli/msprof_export_test.cpp
  tests/models/kernels/reduction/reduce_long_rows_test.cpp
  tests/models/kernels/vector/vector_transformer_ops_test.cpp
  tests/models/kernels/vector/vector_cnn_training_ops_test.cpp
  tests/models/memory/shared_memory_system_test.cpp
  tests/models/memory/traffic_sampler_test.cpp
  tests/models/timing/transfer_timing_test.cpp
  tests/models/timing/vector_timing_model_test.cpp
  tests/profiler/writers/communication_transports_test.cpp
  tests/profiler/writers/hardware_sample_timeline_test.cpp
  tests/profiler/writers/op_statistic_test.cpp
  tests/profiler/writers/profiler_info_test.cpp
  tests/sim/config/chip_overrides_test.cpp
  tests/sim/engine/command/core_trace_command_test.cpp
  tests/sim/engine/command/mstx_output_test.cpp
  tests/sim/host/host_call_costs_test.cpp
  tests/sim/host/profiler_switches_test.cpp
  tests/sim/workload/mstx_block_test.cpp
  tests/sim/workload/op_schema_transformer_test.cpp
  tests/sim/workload/shipped_workloads_test.cpp
  tests/sim/workload/workload_errors_test.cpp)

# Makes <target> (an area library or test binary with the given sources) a unity build when the
# option is on.
function(ascendsim_unity_build target area)
  if(NOT ASCENDSIM_UNITY_BUILD OR area IN_LIST ASCENDSIM_NOT_UNITY_AREAS)
    return()
  endif()
  set_target_properties(${target} PROPERTIES UNITY_BUILD ON
    UNITY_BUILD_BATCH_SIZE ${ASCENDSIM_UNITY_BATCH_SIZE})
  foreach(source ${ARGN})
    file(RELATIVE_PATH relative ${CMAKE_SOURCE_DIR} ${source})
    if(relative IN_LIST ASCENDSIM_NOT_UNITY_FILES)
      set_source_files_properties(${source} TARGET_DIRECTORY ${target}
        PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
    endif()
  endforeach()
endfunction()
