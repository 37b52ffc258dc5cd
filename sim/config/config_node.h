#pragma once
// A YAML mapping plus where it came from (file, key path), with typed reads that fail with a
// ConfigError naming file, key path and problem. A read of an absent key leaves the target
// unchanged unless the key is required: that is how defaults and inherited values work.
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "sim/config/config_error.h"

namespace ascendsim {

class ConfigNode {
public:
    ConfigNode(YAML::Node node, std::string file, std::string keyPath);

    bool has(const std::string& key) const;
    // Fails if the mapping has a key outside `allowed` (catches typos).
    void allowOnly(std::initializer_list<const char*> allowed) const;

    // Sub-mapping at `key`; absent → an empty node (has() false everywhere) unless required.
    ConfigNode child(const std::string& key, bool required = false) const;
    std::vector<ConfigNode> sequence(const std::string& key) const;  // must be a sequence
    YAML::Node raw(const std::string& key) const { return node_[key]; }

    void readPositive(const std::string& key, std::uint32_t& out, bool required = false) const;
    void readPositive(const std::string& key, std::uint64_t& out, bool required = false) const;
    void readNonNegative(const std::string& key, std::uint32_t& out, bool required = false) const;
    void readPositive(const std::string& key, double& out, bool required = false) const;
    // A number in (min, max]: efficiencies and other fractions of a nominal rate.
    void readInRange(const std::string& key, double& out, double min, double max) const;
    void readString(const std::string& key, std::string& out, bool required = false) const;

    [[noreturn]] void fail(const std::string& key, const std::string& problem) const;
    [[noreturn]] void failHere(const std::string& problem) const;

    std::string pathOf(const std::string& key) const;
    const std::string& file() const { return file_; }
    const std::string& keyPath() const { return keyPath_; }
    const YAML::Node& node() const { return node_; }

private:
    // The scalar text at key, or nullptr-equivalent false when absent (and not required).
    bool scalarAt(const std::string& key, bool required, std::string& text) const;
    std::uint64_t parseUnsigned(const std::string& key, const std::string& text, bool positive,
                                std::uint64_t max) const;

    YAML::Node node_;
    std::string file_;
    std::string keyPath_;
};

}  // namespace ascendsim
