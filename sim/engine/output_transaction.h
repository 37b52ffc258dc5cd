#pragma once
// Everything one run writes — the *_ascend_pt directories of every rank, --report,
// --chrome-trace, --core-trace — is checked before the simulation starts, written to
// temporaries, and committed together: all of it lands, or none of it (docs/reliability.md).
//
// Temporaries carry this host's name and pid (`.ascendsim-staging-HOST-PID`,
// `.NAME.ascendsim-tmp-HOST-PID`); SIGINT/SIGTERM remove them (interrupt_cleanup.h), and a later
// run removes those whose process is gone.
#include <filesystem>
#include <string>
#include <vector>

#include "sim/engine/simulation_options.h"

namespace ascendsim {

class OutputTransaction {
  public:
    // Checks every output path and name of `options` (UsageError naming the option when one
    // cannot work), creates the output folder, removes stale temporaries there and creates the
    // staging directory.
    explicit OutputTransaction(const SimulationOptions& options);
    // Not committed: removes every temporary, and the folders the constructor created if they
    // are still empty.
    ~OutputTransaction();
    OutputTransaction(const OutputTransaction&) = delete;
    OutputTransaction& operator=(const OutputTransaction&) = delete;

    // Where the *_ascend_pt directories are built (the parent given to writeProfilerOutput).
    const std::filesystem::path& stagingDirectory() const { return staging_; }
    // Where to write the file that ends up at `finalPath`: a temporary sibling for a regular
    // file, the path itself for a device or pipe (/dev/null, /dev/stdout).
    std::filesystem::path stageFile(const std::filesystem::path& finalPath);
    // Where a directory built in the staging directory lands on commit.
    std::filesystem::path finalPathOf(const std::filesystem::path& staged) const {
        return outputFolder_ / staged.filename();
    }
    // Moves every staged directory into the output folder and every staged file into place; on
    // failure nothing stays.
    void commit();

  private:
    struct StagedFile {
        std::filesystem::path temporary, final;
    };
    void rollBack() noexcept;

    std::filesystem::path outputFolder_;
    std::filesystem::path staging_;
    std::vector<std::filesystem::path> createdFolders_;  // deepest last
    std::vector<StagedFile> files_;
    bool committed_ = false;
};

// A name that becomes part of a path (--worker-name, --hostname): one plain path component.
// Throws UsageError naming `option`.
void checkPathComponent(const std::string& name, const std::string& option);

// Removes `.ascendsim-staging-HOST-PID`, `.NAME.ascendsim-tmp-HOST-PID` (this host) and the
// older `.NAME_ascend_pt.tmp-PID-N` entries of `folder` whose process no longer exists.
// Returns how many it removed.
std::size_t removeStaleTemporaries(const std::filesystem::path& folder);

}  // namespace ascendsim
