#include "sim/config/config_node.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <set>

namespace ascendsim {

ConfigNode::ConfigNode(YAML::Node node, std::string file, std::string keyPath)
    : node_(std::move(node)), file_(std::move(file)), keyPath_(std::move(keyPath)) {
    if (node_ && !node_.IsNull() && !node_.IsMap()) failHere("expected a mapping");
}

bool ConfigNode::has(const std::string& key) const {
    return node_ && node_.IsMap() && node_[key] && !node_[key].IsNull();
}

std::string ConfigNode::pathOf(const std::string& key) const {
    return keyPath_.empty() ? key : keyPath_ + "." + key;
}

void ConfigNode::fail(const std::string& key, const std::string& problem) const {
    int line = -1;
    if (node_ && node_.IsMap() && node_[key]) line = node_[key].Mark().line;
    throw ConfigError(file_, pathOf(key), problem, line);
}

void ConfigNode::failHere(const std::string& problem) const {
    throw ConfigError(file_, keyPath_, problem, node_ ? node_.Mark().line : -1);
}

void ConfigNode::allowOnly(std::initializer_list<const char*> allowed) const {
    if (!node_ || !node_.IsMap()) return;
    const std::set<std::string> known(allowed.begin(), allowed.end());
    std::set<std::string> seen;
    for (const auto& entry : node_) {
        const std::string key = entry.first.as<std::string>();
        // yaml-cpp keeps both entries of a repeated key and finds the first: the second value
        // would be dropped without a word.
        if (!seen.insert(key).second) {
            throw ConfigError(file_, pathOf(key), "key is given twice", entry.first.Mark().line);
        }
        if (known.count(key) == 0) {
            std::string list;
            for (const char* k : allowed) list += (list.empty() ? "" : ", ") + std::string(k);
            throw ConfigError(file_, pathOf(key), "unknown key (expected one of: " + list + ")",
                              entry.first.Mark().line);
        }
    }
}

ConfigNode ConfigNode::child(const std::string& key, bool required) const {
    if (!has(key)) {
        if (required) fail(key, "missing required section");
        return ConfigNode(YAML::Node(), file_, pathOf(key));
    }
    if (!node_[key].IsMap()) fail(key, "expected a mapping");
    return ConfigNode(node_[key], file_, pathOf(key));
}

std::vector<ConfigNode> ConfigNode::sequence(const std::string& key) const {
    // A missing key must be asked for with has() first: on an absent key yaml-cpp hands back an
    // invalid node whose every query throws YAML::InvalidNode (fuzz_chip_config finding).
    if (!has(key)) fail(key, "missing required list");
    const YAML::Node seq = node_[key];
    if (!seq.IsSequence()) fail(key, "expected a list");
    std::vector<ConfigNode> items;
    for (std::size_t i = 0; i < seq.size(); ++i) {
        items.emplace_back(seq[i], file_, pathOf(key) + "[" + std::to_string(i) + "]");
    }
    return items;
}

bool ConfigNode::scalarAt(const std::string& key, bool required, std::string& text) const {
    if (!has(key)) {
        if (required) fail(key, "missing required key");
        return false;
    }
    if (!node_[key].IsScalar()) fail(key, "expected a single value");
    text = node_[key].Scalar();
    return true;
}

std::uint64_t ConfigNode::parseUnsigned(const std::string& key, const std::string& text,
                                        bool positive, std::uint64_t max) const {
    const char* expected = positive ? "expected a positive integer" : "expected an integer >= 0";
    std::uint64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || (positive && value == 0)) {
        fail(key, std::string(expected) + ", got " + text);
    }
    if (value > max) fail(key, "value " + text + " is too large (max " + std::to_string(max) + ")");
    return value;
}

void ConfigNode::readPositive(const std::string& key, std::uint32_t& out, bool required) const {
    std::string text;
    if (scalarAt(key, required, text)) {
        out = static_cast<std::uint32_t>(
            parseUnsigned(key, text, true, std::numeric_limits<std::uint32_t>::max()));
    }
}

void ConfigNode::readPositive(const std::string& key, std::uint64_t& out, bool required) const {
    std::string text;
    if (scalarAt(key, required, text)) {
        out = parseUnsigned(key, text, true, std::numeric_limits<std::uint64_t>::max());
    }
}

void ConfigNode::readNonNegative(const std::string& key, std::uint32_t& out, bool required) const {
    std::string text;
    if (scalarAt(key, required, text)) {
        out = static_cast<std::uint32_t>(
            parseUnsigned(key, text, false, std::numeric_limits<std::uint32_t>::max()));
    }
}

void ConfigNode::readPositive(const std::string& key, double& out, bool required) const {
    std::string text;
    if (!scalarAt(key, required, text)) return;
    double value = 0.0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value) ||
        value <= 0.0) {
        fail(key, "expected a positive number, got " + text);
    }
    out = value;
}

void ConfigNode::readInRange(const std::string& key, double& out, double min, double max) const {
    std::string text;
    if (!scalarAt(key, false, text)) return;
    double value = 0.0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value) ||
        value <= min || value > max) {
        fail(key, "expected a number in (" + std::to_string(min) + ", " + std::to_string(max) +
                      "], got " + text);
    }
    out = value;
}

void ConfigNode::readString(const std::string& key, std::string& out, bool required) const {
    std::string text;
    if (scalarAt(key, required, text)) {
        if (text.empty()) fail(key, "expected a non-empty string");
        out = text;
    }
}

}  // namespace ascendsim
