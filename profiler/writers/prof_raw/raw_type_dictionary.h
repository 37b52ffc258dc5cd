#pragma once
// CANN's type dictionary (`unaging.additional.type_info_dic.slice_0`) and hash dictionary
// (`unaging.additional.hash_dic.slice_0`): the text files that name the numbers the binary
// records carry. Lines are "{level}_{type}:{name}" and "{hash}:{name}" (Ascend/msprof
// analysis/msparser/hash_dic/hash_dic_parser.py reads them that way).
//
// Fixed type numbers come from CANN's report types (prof_common.h, MSPROF_REPORT_*); a name
// without a fixed number gets the next number above its family's base, in first-use order
// (assumed: CANN numbers its APIs from its own tables, which are not public; the dictionary makes
// every number self-describing, and msprof resolves names only through it).
#include <cstdint>
#include <map>
#include <string>
#include <utility>

namespace ascendsim {

// CANN report levels (prof_common.h MSPROF_REPORT_*_LEVEL).
inline constexpr std::uint16_t kRawLevelPytorchTx = 30000;
inline constexpr std::uint16_t kRawLevelTx = 20500;
inline constexpr std::uint16_t kRawLevelAcl = 20000;
inline constexpr std::uint16_t kRawLevelModel = 15000;
inline constexpr std::uint16_t kRawLevelNode = 10000;
inline constexpr std::uint16_t kRawLevelHccl = 5500;
inline constexpr std::uint16_t kRawLevelRuntime = 5000;

class RawTypeDictionary {
public:
    // Registers a fixed number (prof_common.h) under its name.
    std::uint32_t fixed(std::uint16_t level, std::uint32_t type, const std::string& name);
    // The number of `name` in the family starting at `base` of `level`, assigning the next free one.
    std::uint32_t typeOf(std::uint16_t level, std::uint32_t base, const std::string& name);
    // The 64-bit id of a string (op names, op types, kernel names), recorded for hash_dic.
    std::uint64_t hashOf(const std::string& name);

    std::string typeInfoText() const;  // "20000_327681:aclnnMatmul\n...", by level then type
    std::string hashText() const;      // "1234:MatMul\n...", by id

private:
    std::map<std::pair<std::uint16_t, std::uint32_t>, std::string> types_;
    std::map<std::pair<std::uint16_t, std::string>, std::uint32_t> numbers_;
    std::map<std::pair<std::uint16_t, std::uint32_t>, std::uint32_t> nextInFamily_;
    std::map<std::uint64_t, std::string> hashes_;
};

}  // namespace ascendsim
