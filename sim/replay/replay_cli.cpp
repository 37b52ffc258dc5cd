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
    replay_->add_option("--l2", o.l2, "L2 state at each kernel start: timeline (default), cold, warm or producer (docs/fidelity.md)")
        ->capture_default_str();
    replay_->add_option("--code-l2", o.codeL2,
                        "Where a launch that misses its code in the ICache fills it from: held (L2, default) or walk "
                        "(HBM when an LRU walk of the launch order says L2 no longer held the binary; docs/fidelity.md §93)")
        ->check(CLI::IsMember({"held", "walk"}))
        ->capture_default_str();
    replay_->add_option("--l2-victims", o.l2Victims,
                        "Under --l2 timeline, what a launch's L2 misses evict: eager (the chip's write-back policy, default; "
                        "a write into L2 the launch did not touch yet pays at most the dirty share of L2 the walk holds, §178) "
                        "or timeline (the dirty share of the tensors the timeline walk pushes out, lazy write-back; "
                        "docs/fidelity.md §103)")
        ->check(CLI::IsMember({"eager", "timeline"}))
        ->capture_default_str();
    replay_->add_option("--l2-scalars", o.l2Scalars,
                        "Under --l2 timeline, where a kernel's 0-d inputs are: held (in L2, default: scalars written just "
                        "before the launch; docs/fidelity.md §134e, §145) or cold (read from HBM)")
        ->check(CLI::IsMember({"cold", "held"}))
        ->capture_default_str();
    replay_->add_option("--l2-views", o.l2Views,
                        "Under --l2 timeline, what an input of a shape L2 holds no tensor of is: autograd (default: in a "
                        "backward node, a reshape of a tensor the node's kernels touched; docs/fidelity.md §140g, §146) "
                        "or new (read cold, unless it is a reshape of what the kernel just before wrote, §144e)")
        ->check(CLI::IsMember({"new", "autograd"}))
        ->capture_default_str();
    replay_->add_option("--hccl-traffic", o.hcclTraffic,
                        "HBM shared with the HCCL transfers a kernel ran beside in the real timeline (the trace's or DB's "
                        "Memcpy / Reduce_Inline task rows): on (default) or off (docs/fidelity.md §108)")
        ->check(CLI::IsMember({"on", "off"}))
        ->capture_default_str();
    replay_->add_option("--html", o.htmlPath,
                        "Also write the replay as one self-contained HTML page (sim-vs-real scatter, family errors, kernel table)");
    replay_->add_option("--source", o.source, "Export to read: auto (text when present), text, db")->capture_default_str();

    calibrate_ = app.add_subcommand(
        "calibrate", "Fit the chip's global parameters (bandwidths, latencies, start-up) to real profiles; writes an inherits: chip YAML");
    CalibrateOptions& c = calibrateOptions_;
    calibrate_->add_option("REAL_DIR", c.profileDirs, "Real profiles (*_ascend_pt directories)")->required();
    calibrate_->add_option("--chip", c.baseChip, "Chip config the fit starts from (and inherits)")->required();
    calibrate_->add_option("--output,-o", c.outputFile, "Chip YAML to write (its name: the file's stem)")->required();
    calibrate_->add_option("--param", c.only, "Fit only this chip key (repeatable; default: every calibrated key)");
    calibrate_->add_option("--evaluations", c.evaluations, "Replays per parameter (golden-section search)")
        ->capture_default_str()
        ->check(CLI::Range(2, 30));
}

std::optional<int> ReplayCli::runIfParsed(std::ostream& out, std::ostream& err, bool showProgress) {
    if (replay_->parsed()) {
        ReplayOptions options = replayOptions_;
        options.configDir = configDir_;
        options.showProgress = showProgress;
        return runReplayCommand(options, out, err);
    }
    if (calibrate_->parsed()) {
        CalibrateOptions options = calibrateOptions_;
        options.configDir = configDir_;
        options.showProgress = showProgress;
        return runCalibrateCommand(options, out, err);
    }
    return std::nullopt;
}

}  // namespace ascendsim
