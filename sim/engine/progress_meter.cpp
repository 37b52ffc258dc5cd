#include "sim/engine/progress_meter.h"

#include <utility>

namespace ascendsim {

namespace {
constexpr int kBarWidth = 30;
}

ProgressMeter::ProgressMeter(std::string label, std::size_t total, std::FILE* out, bool terminal)
    : label_(std::move(label)), total_(total), out_(out), terminal_(terminal),
      start_(std::chrono::steady_clock::now()) {}

void ProgressMeter::advance(const std::string& what) {
    ++done_;
    if (out_ == nullptr || total_ == 0) return;
    const double elapsedS =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const double fraction = static_cast<double>(done_) / static_cast<double>(total_);
    // The ETA assumes the remaining items cost what the finished ones did on average.
    const double etaS = done_ == 0 ? 0.0 : elapsedS / static_cast<double>(done_) * static_cast<double>(total_ - done_);
    if (!terminal_) {
        std::fprintf(out_, "%s: %zu/%zu %s\n", label_.c_str(), done_, total_, what.c_str());
        return;
    }
    const int filled = static_cast<int>(fraction * kBarWidth);
    std::string bar(static_cast<std::size_t>(filled), '#');
    bar.append(static_cast<std::size_t>(kBarWidth - filled), '.');
    std::fprintf(out_, "\r%s [%s] %zu/%zu  %.0f s elapsed, ETA %.0f s ", label_.c_str(), bar.c_str(), done_,
                 total_, elapsedS, etaS);
    std::fflush(out_);
}

void ProgressMeter::finish() {
    if (out_ != nullptr && terminal_ && done_ > 0) std::fputc('\n', out_);
}

}  // namespace ascendsim
