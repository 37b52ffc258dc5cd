#include "models/functional/core_memory.h"

#include <cstring>
#include <sstream>
#include <stdexcept>

namespace ascendsim {

namespace {
bool belongsTo(MemSpace space, CoreKind kind) {
    if (space == MemSpace::GM) return true;
    if (kind == CoreKind::Coupled) return true;
    const bool vectorSide = space == MemSpace::UB;
    return kind == CoreKind::Vector ? vectorSide : !vectorSide;
}
}  // namespace

std::string hexAddress(std::uint64_t addr) {
    std::ostringstream out;
    out << "0x" << std::hex << addr;
    return out.str();
}

CoreMemory::CoreMemory(const ChipConfig& chip, CoreKind kind, std::vector<std::uint8_t>& gm)
    : chip_(chip), kind_(kind), gm_(gm) {
    for (std::size_t i = 1; i < kMemSpaceCount; ++i) {
        const auto space = static_cast<MemSpace>(i);
        if (belongsTo(space, kind)) local_[i].resize(chip.bufferCapacity(space));
    }
}

void CoreMemory::poison() {
    for (auto& buffer : local_)
        if (!buffer.empty()) std::memset(buffer.data(), 0xFF, buffer.size());
}

bool CoreMemory::has(MemSpace space) const {
    return space == MemSpace::GM || !local_[static_cast<std::size_t>(space)].empty();
}

std::string CoreMemory::describe() const {
    switch (kind_) {
        case CoreKind::Cube: return "AIC";
        case CoreKind::Vector: return "AIV";
        case CoreKind::Coupled: return "AI core";
    }
    return "core";
}

std::vector<std::uint8_t>& CoreMemory::buffer(MemSpace space, const char* what) {
    if (space == MemSpace::GM) return gm_;
    auto& local = local_[static_cast<std::size_t>(space)];
    if (local.empty())
        throw std::runtime_error(std::string(what) + ": buffer " + std::string(memSpaceName(space)) +
                                 " does not exist on an " + describe() + " of " + chip_.name);
    return local;
}

std::uint8_t* CoreMemory::span(MemSpace space, std::uint64_t addr, std::uint64_t bytes,
                               const char* what) {
    auto& target = buffer(space, what);
    if (addr > target.size() || bytes > target.size() - addr)
        throw std::runtime_error(std::string(what) + ": " + std::string(memSpaceName(space)) +
                                 " access at " + hexAddress(addr) + " (+" + std::to_string(bytes) +
                                 " bytes) leaves the " + std::to_string(target.size()) +
                                 "-byte buffer");
    return target.data() + addr;
}

void CoreMemory::checkAligned(MemSpace space, std::uint64_t addr, const char* what) const {
    if (space == MemSpace::GM) return;
    const std::uint32_t alignment = chip_.alignment(space);
    if (alignment > 1 && addr % alignment != 0)
        throw std::runtime_error(std::string(what) + ": " + std::string(memSpaceName(space)) +
                                 " address " + hexAddress(addr) + " is not " +
                                 std::to_string(alignment) + "-byte aligned");
}

}  // namespace ascendsim
