#include "profiler/writers/prof_raw/raw_type_dictionary.h"

#include <stdexcept>

namespace ascendsim {

std::uint32_t RawTypeDictionary::fixed(std::uint16_t level, std::uint32_t type, const std::string& name) {
    types_[{level, type}] = name;
    numbers_[{level, name}] = type;
    return type;
}

std::uint32_t RawTypeDictionary::typeOf(std::uint16_t level, std::uint32_t base, const std::string& name) {
    if (auto it = numbers_.find({level, name}); it != numbers_.end()) return it->second;
    std::uint32_t& next = nextInFamily_[{level, base}];
    std::uint32_t type = base + next;
    while (types_.contains({level, type})) type = base + ++next;
    ++next;
    return fixed(level, type, name);
}

std::uint64_t RawTypeDictionary::hashOf(const std::string& name) {
    // FNV-1a 64 (assumed: GE's string hash is not public; ids only need to be stable and distinct).
    std::uint64_t hash = 14695981039346656037ULL;
    for (unsigned char c : name) {
        hash ^= c;
        hash *= 1099511628211ULL;
    }
    auto [it, inserted] = hashes_.emplace(hash, name);
    if (!inserted && it->second != name) throw std::runtime_error("hash_dic: two names share id " + std::to_string(hash));
    return hash;
}

std::string RawTypeDictionary::typeInfoText() const {
    std::string text;
    for (const auto& [key, name] : types_) {
        text += std::to_string(key.first) + "_" + std::to_string(key.second) + ":" + name + "\n";
    }
    return text;
}

std::string RawTypeDictionary::hashText() const {
    std::string text;
    for (const auto& [id, name] : hashes_) text += std::to_string(id) + ":" + name + "\n";
    return text;
}

}  // namespace ascendsim
