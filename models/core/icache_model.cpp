#include "models/core/icache_model.h"

#include <algorithm>
#include <stdexcept>

namespace ascendsim {

ICacheModel::ICacheModel(const ICacheConfig& config) {
    if (config.fillBytes == 0 || config.bytesPerInstruction == 0 || config.sizeBytes < config.fillBytes)
        throw std::invalid_argument("icache needs fillBytes > 0, bytesPerInstruction > 0, size ≥ fill");
    entries_.resize(config.sizeBytes / config.fillBytes);
    instructionsPerLine_ = std::max<std::uint64_t>(1, config.fillBytes / config.bytesPerInstruction);
    fillBytes_ = config.fillBytes;
    codeLines_ = (config.kernelCodeBytes + config.fillBytes - 1) / config.fillBytes;
    imageLines_ = codeLines_;
}

std::uint32_t ICacheModel::fetchImage(std::uint64_t codeId, std::uint32_t codeBytes) {
    imageLines_ = codeLines_ > 0 && codeBytes > 0 ? (codeBytes + fillBytes_ - 1) / fillBytes_ : codeLines_;
    std::uint32_t misses = 0;
    for (std::uint64_t line = 0; line < imageLines_; ++line) misses += lookup(codeId, line) ? 1 : 0;
    lastLine_ = imageLines_ > 0 ? imageLines_ - 1 : ~std::uint64_t{0};
    lastCode_ = codeId;
    return misses;
}

bool ICacheModel::lookup(std::uint64_t codeId, std::uint64_t line) {
    ++useClock_;
    Entry* victim = &entries_.front();
    for (Entry& e : entries_) {
        if (e.valid && e.codeId == codeId && e.line == line) {
            e.lastUse = useClock_;
            return false;
        }
        if (!e.valid || (victim->valid && e.lastUse < victim->lastUse)) victim = &e;
    }
    *victim = {codeId, line, useClock_, true};
    return true;
}

}  // namespace ascendsim
