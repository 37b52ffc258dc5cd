#pragma once
// `ascendsim msprof --export=on --output=PROF_DIR` without --application: msprof's second use,
// exporting a collection that already exists. It reads the raw data of each PROF_* directory
// (PROF_DIR itself, or the PROF_* directories in it), rebuilds the run it describes
// (profiler/readers/prof_raw) and writes the 2023 layout's device_{id}/timeline/ and summary/,
// byte-identical to the export the collection wrote (docs/e2e-profiling.md).
//
// The chip is the one named by --chip, or the one config in the configs folder whose counts and
// clocks equal info.json's DeviceInfo (platform_version, ai_core_num, aiv_num, ai_cpu_core_num,
// aic/aiv/hwts frequencies). Bad raw data stops with exit code 2 and the file and byte offset;
// every PROF_* directory is read and checked before anything is written.
#include <ostream>
#include <string>

namespace ascendsim {

int exportExistingCollection(const std::string& output, const std::string& chipName, const std::string& configDir,
                             std::ostream& out, std::ostream& err);

}  // namespace ascendsim
