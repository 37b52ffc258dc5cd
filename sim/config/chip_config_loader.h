#pragma once
// configs/<SoC>.yaml → validated ChipConfig (DESIGN.md "Configuration"; schema and units in
// docs/chip-config.md). A file may say `inherits: <OtherSoC>`: the other file (same folder) is
// loaded first and this file overrides only the keys it lists (a `paths` list replaces the
// inherited list whole). Every error is a ConfigError naming file, key path and problem.
#include <string>
#include <vector>

#include "models/chip/chip_config.h"
#include "sim/config/config_error.h"

namespace ascendsim {

// `overrides` are `--chip-set key.path=value` assignments (chip_overrides.h), applied over the
// file chain before validation.
ChipConfig loadChipConfig(const std::string& path, const std::vector<std::string>& overrides = {});

// `name` is a SoC name ("Ascend910B1"), matched to <configDir>/<name>.yaml, case-insensitively,
// or the path of a chip YAML file (it ends in .yaml or contains '/'), e.g. a what-if chip that
// says `inherits: Ascend910B1` next to a copy of that file.
ChipConfig loadChipByName(const std::string& name, const std::string& configDir,
                          const std::vector<std::string>& overrides = {});

// What `ascendsim chips` prints for each loadable config in the folder, sorted by name.
struct ChipSummary {
    std::string name;
    std::string file;
    CoreOrganisation organisation = CoreOrganisation::Split;
    std::uint32_t aiCoreCount = 0;
    std::uint32_t vectorCoreCount = 0;
    double aiCoreFreqMhz = 0.0;
    std::uint64_t l2Bytes = 0;
    std::uint64_t hbmBytes = 0;
    double hbmBandwidthGBps = 0.0;
};
std::vector<ChipSummary> listChips(const std::string& configDir);

// The configs folder, first found of: $ASCENDSIM_CONFIG_DIR; the installed copy beside the running
// program (<prefix>/share/ascendsim/configs for <prefix>/bin/ascendsim); $ASCENDSIM_SOURCE_DIR/configs;
// `fallback` (the CLI passes its build tree's configs, so a program run from a build tree finds them).
std::string defaultConfigDir(const std::string& fallback = "configs");

// <prefix>/share/ascendsim/configs when the running program is <prefix>/bin/<name> and that folder
// exists (an installed ascendsim); empty otherwise.
std::string installedConfigDir();

const char* organisationName(CoreOrganisation organisation);  // "split" / "coupled"

}  // namespace ascendsim
