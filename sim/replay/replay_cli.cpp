#include "sim/replay/replay_cli.h"

namespace ascendsim {

ReplayCli::ReplayCli(CLI::App& app, const std::string& configDir) : configDir_(configDir) {
    replay_ = app.add_subcommand(
        "replay", "Re-run every distinct kernel of a real profile and compare: how well does the simulator know the machine?");
    ReplayOptions& o = replayOptions_;
    replay_->add_option("REAL_DIR", o.profileDir, "Real profile: *_ascend_pt directory (text or DB export)")->required();
    replay_->add_option("--chip", o.chip, "Chip config to replay on (default: inferred from the profile)");
    replay_->add_option("--chip-set", o.chipOverrides, "What-if edit of the chip config (key.path=value); repeatable");
    replay_->add_option("--output,-o", o.outputDir, "Directory for replay_kernels.csv, replay_families.csv, replay_summary.txt")
        ->capture_default_str();
    replay_->add_option("--l2", o.l2, "L2 state at each kernel start: cold (default) or warm (docs/fidelity.md)")
        ->capture_default_str();
    replay_->add_option("--source", o.source, "Export to read: auto (text when present), text, db")->capture_default_str();
}

std::optional<int> ReplayCli::runIfParsed(std::ostream& out, std::ostream& err, bool showProgress) {
    if (replay_->parsed()) {
        ReplayOptions options = replayOptions_;
        options.configDir = configDir_;
        options.showProgress = showProgress;
        return runReplayCommand(options, out, err);
    }
    return std::nullopt;
}

}  // namespace ascendsim
