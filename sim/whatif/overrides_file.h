#pragma once
// The overrides file `ascendsim tune -o FILE` writes and `ascendsim -w W --overrides FILE`
// applies: a flat YAML mapping whose keys are `--set` keys (op.NAME.block_dim: 24, batch: 8).
// Entries apply before the command line's own --set, so a --set of the same key wins.
#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace ascendsim {

// "key=value" entries in file order. Throws WorkloadError naming file:line and the key when the
// file is missing, not a mapping, or a value is not a scalar.
std::vector<std::string> readOverridesFile(const std::string& path);

// `header` lines become comments at the top.
void writeOverridesFile(std::ostream& out, const std::vector<std::string>& header,
                        const std::vector<std::pair<std::string, std::string>>& entries);

}  // namespace ascendsim
