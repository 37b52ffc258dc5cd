#pragma once
// FRAMEWORK/ binary files (formats.md §1.4): what torch_npu's C++ side appends while profiling and
// its Python parser decodes. Little-endian fixed structs; TLV files frame each record as
// [u16 type][u32 length][struct][nested u16/u32/utf-8 fields]. Times are monotonic ns
// (profiler_info start_info.syscnt_enable = false, see profiler_info.h).
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "profiler/config/profiler_config.h"
#include "profiler/record/run_record.h"

namespace ascendsim {

// Fixed struct sizes (struct.calcsize of torch_npu's formats).
inline constexpr std::size_t kOpRangeStructBytes = 58;       // "<3q4QB?"
inline constexpr std::size_t kOpMarkStructBytes = 40;        // "<q4Q"
inline constexpr std::size_t kMemoryUsageStructBytes = 77;   // "<7q2b3B2Q"
inline constexpr std::size_t kPythonTracerFuncBytes = 33;    // "<4QB"
inline constexpr std::size_t kPythonTracerHashBytes = 8;     // "<Q"

// One file's bytes per encoder (exposed for tests; writeFrameworkFiles uses them).
std::string encodeOpRange(const RunRecord& run);
std::string encodeOpMark(const RunRecord& run);
std::string encodeMemoryUsage(const RunRecord& run);
std::string encodePythonTracerFunc(const RunRecord& run);
std::string encodePythonTracerHash(const RunRecord& run);

// The hash key of a Python function name in torch.python_tracer_func / _hash (FNV-1a 64).
std::uint64_t pythonFunctionHashKey(const std::string& name);

// Writes the FRAMEWORK/ files that the configuration produces into `frameworkDir` (created):
// op_range and op_mark always, memory_usage with profile_memory, the python tracer files with
// with_stack or with_modules. Empty files are not written. Throws on I/O errors.
void writeFrameworkFiles(const std::filesystem::path& frameworkDir, const RunRecord& run, const ProfilerConfig& config);

}  // namespace ascendsim
