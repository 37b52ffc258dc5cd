#include "sim/config/chip_overrides.h"

#include "sim/yaml/yaml_text.h"

#include "sim/config/config_error.h"

namespace ascendsim {

namespace {

std::vector<std::string> splitKeyPath(const std::string& keyPath, const std::string& assignment) {
    std::vector<std::string> segments;
    std::size_t start = 0;
    while (true) {
        const std::size_t dot = keyPath.find('.', start);
        const std::string segment = keyPath.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
        if (segment.empty()) {
            throw ConfigError(kChipOverrideSource, keyPath, "empty key segment in '" + assignment + "'");
        }
        segments.push_back(segment);
        if (dot == std::string::npos) return segments;
        start = dot + 1;
    }
}

// The scalar as YAML would read it from a file, so "402653184", "1.5" and "split" all work.
YAML::Node scalarValue(const std::string& text, const std::string& keyPath) {
    try {
        YAML::Node value = loadSingleYamlDocument(text);
        if (value.IsScalar()) return value;
    } catch (const YamlTextError&) {
    } catch (const YAML::Exception&) {
    }
    YAML::Node literal;
    literal = text;
    if (text.empty()) throw ConfigError(kChipOverrideSource, keyPath, "empty value");
    return literal;
}

}  // namespace

YAML::Node chipOverrideLayer(const std::vector<std::string>& assignments) {
    YAML::Node layer(YAML::NodeType::Map);
    for (const std::string& assignment : assignments) {
        const std::size_t equals = assignment.find('=');
        if (equals == std::string::npos) {
            throw ConfigError(kChipOverrideSource, assignment, "expected key.path=value");
        }
        const std::string keyPath = assignment.substr(0, equals);
        const std::vector<std::string> segments = splitKeyPath(keyPath, assignment);
        // yaml-cpp nodes are handles: walking with operator[] on a copy edits the layer in place.
        YAML::Node section = layer;
        std::string walked;
        for (std::size_t i = 0; i + 1 < segments.size(); ++i) {
            walked += (walked.empty() ? "" : ".") + segments[i];
            YAML::Node next = section[segments[i]];
            if (!next.IsDefined() || next.IsNull()) {
                section[segments[i]] = YAML::Node(YAML::NodeType::Map);
                next = section[segments[i]];
            } else if (!next.IsMap()) {
                throw ConfigError(kChipOverrideSource, walked, "is a value, cannot hold key " + segments[i + 1]);
            }
            section.reset(next);
        }
        const YAML::Node existing = section[segments.back()];
        if (existing.IsDefined() && existing.IsMap()) {
            throw ConfigError(kChipOverrideSource, keyPath, "is a section, not a value");
        }
        section[segments.back()] = scalarValue(assignment.substr(equals + 1), keyPath);
    }
    return layer;
}

}  // namespace ascendsim
