// Fuzz target: the CSV reader and the result-directory summary `compare` reads. The input is
// split at the first NUL byte into kernel_details.csv and step_trace_time.csv. Malformed files
// must come out as std::runtime_error (compare: exit 2), nothing else.
#include <cstdint>
#include <stdexcept>
#include <string_view>

#include "fuzz/fuzz_support.h"
#include "profiler/format/csv_reader.h"
#include "profiler/report/profile_comparison.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    const std::size_t nul = bytes.find('\0');
    const std::string_view kernels = bytes.substr(0, nul);
    const std::string_view steps = nul == std::string_view::npos ? std::string_view() : bytes.substr(nul + 1);
    try {
        ascendsim::parseCsv(bytes);
    } catch (const std::runtime_error&) {
    }
    static const auto dir = ascendsim::fuzz::scratchFile("result_ascend_pt");
    std::filesystem::create_directories(dir / "ASCEND_PROFILER_OUTPUT");
    ascendsim::fuzz::writeScratch("result_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv", kernels);
    const auto stepFile = dir / "ASCEND_PROFILER_OUTPUT/step_trace_time.csv";
    if (steps.empty()) std::filesystem::remove(stepFile);
    else ascendsim::fuzz::writeScratch("result_ascend_pt/ASCEND_PROFILER_OUTPUT/step_trace_time.csv", steps);
    try {
        ascendsim::loadProfileSummary(dir);
    } catch (const std::runtime_error&) {
    }
    return 0;
}
