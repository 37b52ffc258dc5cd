#include "sim/engine/progress_meter.h"

#include <algorithm>
#include <cmath>

namespace ascendsim {

namespace {
constexpr std::size_t kBarWidth = 30;
}

ProgressMeter::ProgressMeter(std::string what, std::size_t total, bool terminal, std::ostream& out)
    : what_(std::move(what)), total_(total), terminal_(terminal), out_(out), start_(std::chrono::steady_clock::now()) {}

std::string formatSeconds(double seconds) {
    const long s = std::lround(std::max(0.0, seconds));
    if (s < 60) return std::to_string(s) + "s";
    const long rest = s % 60;
    return std::to_string(s / 60) + "m" + (rest < 10 ? "0" : "") + std::to_string(rest) + "s";
}

void ProgressMeter::finished(const std::string& label) {
    ++done_;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const double eta = elapsed / static_cast<double>(done_) * static_cast<double>(total_ - done_);
    if (terminal_) {
        const std::size_t filled = total_ ? kBarWidth * done_ / total_ : kBarWidth;
        out_ << "\r" << what_ << " [" << std::string(filled, '#') << std::string(kBarWidth - filled, '.') << "] "
             << done_ << "/" << total_ << "  elapsed " << formatSeconds(elapsed) << "  ETA " << formatSeconds(eta)
             << "   ";
        if (done_ == total_) out_ << "\n";
    } else {
        out_ << what_ << ": " << done_ << "/" << total_ << " done (" << label << "), elapsed "
             << formatSeconds(elapsed) << ", ETA " << formatSeconds(eta) << "\n";
    }
    out_.flush();
}

}  // namespace ascendsim
