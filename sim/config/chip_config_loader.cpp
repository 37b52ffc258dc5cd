#include "sim/config/chip_config_loader.h"

#include <cerrno>
#include <cstring>
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <set>

#include <yaml-cpp/yaml.h>

#include "sim/config/chip_config_sections.h"
#include "sim/config/chip_overrides.h"
#include "sim/config/chip_config_validation.h"
#include "sim/config/config_node.h"
#include "sim/yaml/yaml_text.h"

namespace ascendsim {

namespace fs = std::filesystem;

namespace {

YAML::Node parseFile(const std::string& path) {
    if (!fs::is_regular_file(path)) throw ConfigError(path, "", "file not found");
    try {
        return loadSingleYamlFile(path);
    } catch (const YamlFileUnreadable& e) {
        throw ConfigError(path, "", std::string("cannot read the file: ") + e.what());
    } catch (const YamlTextError& e) {
        throw ConfigError(path, "", "YAML syntax error: " + std::string(e.what()), e.line() - 1);
    }
}

// Loads `path` over its `inherits` chain; `seen` guards against inheritance cycles. A parent is
// looked up next to the file first, then in `chipFolder` (so a what-if chip kept elsewhere can
// inherit a shipped one).
void loadInto(const std::string& path, const std::string& chipFolder, ChipConfig& chip,
              std::set<std::string>& seen, std::vector<std::string>& chain) {
    chain.push_back(path);
    const std::string canonical = fs::weakly_canonical(path).string();
    if (!seen.insert(canonical).second) {
        throw ConfigError(path, "inherits", "inheritance cycle");
    }
    const ConfigNode root(parseFile(path), path, "");
    if (!root.node().IsMap()) throw ConfigError(path, "", "expected a mapping at the top level");
    std::string parent;
    root.readString("inherits", parent);
    const bool isRoot = parent.empty();
    if (!isRoot) {
        fs::path parentPath = fs::path(path).parent_path() / (parent + ".yaml");
        if (!fs::is_regular_file(parentPath) && !chipFolder.empty()) {
            parentPath = fs::path(chipFolder) / (parent + ".yaml");
        }
        if (!fs::is_regular_file(parentPath)) {
            root.fail("inherits", "no config " + parentPath.string() + " to inherit from");
        }
        loadInto(parentPath.string(), chipFolder, chip, seen, chain);
    }
    readChipSections(root, isRoot, chip);
}

// The YAML node at a validation key path ("l2.ways", "paths[3].curve[1]"), or an undefined node.
YAML::Node nodeAtKeyPath(YAML::Node node, const std::string& keyPath) {
    std::size_t begin = 0;
    while (begin <= keyPath.size() && node) {
        const std::size_t dot = keyPath.find('.', begin);
        std::string segment = keyPath.substr(begin, dot == std::string::npos ? std::string::npos : dot - begin);
        std::vector<std::size_t> indexes;
        for (std::size_t open = segment.find('['); open != std::string::npos; open = segment.find('[')) {
            const std::size_t close = segment.find(']', open);
            if (close == std::string::npos) return YAML::Node();
            indexes.push_back(std::strtoull(segment.c_str() + open + 1, nullptr, 10));
            segment.erase(open, close - open + 1);
        }
        if (!node.IsMap() || !node[segment]) return YAML::Node();
        node = node[segment];
        for (const std::size_t index : indexes) {
            if (!node.IsSequence() || index >= node.size()) return YAML::Node();
            node = node[index];
        }
        if (dot == std::string::npos) return node;
        begin = dot + 1;
    }
    return YAML::Node();
}

// A validation error names the file and line that set the value at fault: the most derived file
// of the inherits chain that has the key (a command-line edit keeps the edit's name, no line).
[[noreturn]] void rethrowWithLine(const ConfigError& error, const std::vector<std::string>& chain,
                                  bool overridden) {
    if (!overridden && !error.keyPath().empty()) {
        for (const std::string& file : chain) {  // most derived first
            try {
                const YAML::Node value = nodeAtKeyPath(loadSingleYamlFile(file), error.keyPath());
                if (!value) continue;
                const std::string text = error.what();
                const std::string prefix = error.file() + ": " + error.keyPath() + ": ";
                const std::string problem = text.starts_with(prefix) ? text.substr(prefix.size()) : text;
                throw ConfigError(file, error.keyPath(), problem, value.Mark().line);
            } catch (const YamlFileUnreadable&) {
            } catch (const YamlTextError&) {
            }
        }
    }
    throw error;
}

std::string lowercase(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

ChipConfig loadChipFile(const std::string& path, const std::string& chipFolder,
                        const std::vector<std::string>& overrides) {
    ChipConfig chip;
    std::set<std::string> seen;
    std::vector<std::string> chain;  // the file first, then its parents
    loadInto(path, chipFolder, chip, seen, chain);
    if (!overrides.empty()) {
        YAML::Node layer = chipOverrideLayer(overrides);
        if (!layer["name"]) layer["name"] = chip.name;
        readChipSections(ConfigNode(layer, kChipOverrideSource, ""), false, chip);
    }
    // Validation errors name the file; with edits, the value at fault may be an edit.
    chip.sourceFile = overrides.empty() ? path : path + " + " + kChipOverrideSource;
    if (chip.vectorCoreFreqMhz <= 0.0) chip.vectorCoreFreqMhz = chip.aiCoreFreqMhz;
    try {
        validateChipConfig(chip);
    } catch (const ConfigError& error) {
        // An edit that set the key is the value at fault: keep the message naming it.
        bool overridden = false;
        if (!overrides.empty()) {
            overridden = static_cast<bool>(nodeAtKeyPath(chipOverrideLayer(overrides), error.keyPath()));
        }
        rethrowWithLine(error, chain, overridden);
    }
    return chip;
}

}  // namespace

const char* organisationName(CoreOrganisation organisation) {
    return organisation == CoreOrganisation::Split ? "split" : "coupled";
}

ChipConfig loadChipConfig(const std::string& path, const std::vector<std::string>& overrides) {
    return loadChipFile(path, "", overrides);
}

ChipConfig loadChipByName(const std::string& name, const std::string& configDir,
                          const std::vector<std::string>& overrides) {
    if (name.ends_with(".yaml") || name.find('/') != std::string::npos) {
        return loadChipFile(name, configDir, overrides);
    }
    if (!fs::is_directory(configDir)) throw ConfigError(configDir, "", "config folder not found");
    std::vector<std::string> known;
    for (const auto& entry : fs::directory_iterator(configDir)) {
        if (entry.path().extension() != ".yaml") continue;
        const std::string stem = entry.path().stem().string();
        if (lowercase(stem) == lowercase(name)) return loadChipConfig(entry.path().string(), overrides);
        known.push_back(stem);
    }
    std::sort(known.begin(), known.end());
    std::string list;
    for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
    throw ConfigError(configDir, "", "no chip named '" + name + "' (known: " + list + ")");
}

std::vector<ChipSummary> listChips(const std::string& configDir) {
    if (!fs::is_directory(configDir)) throw ConfigError(configDir, "", "config folder not found");
    std::vector<ChipSummary> chips;
    for (const auto& entry : fs::directory_iterator(configDir)) {
        if (entry.path().extension() != ".yaml") continue;
        const ChipConfig chip = loadChipConfig(entry.path().string());
        chips.push_back(ChipSummary{chip.name, entry.path().string(), chip.organisation,
                                    chip.aiCoreCount, chip.vectorCoreCount, chip.aiCoreFreqMhz,
                                    chip.l2.sizeBytes, chip.hbm.sizeBytes, chip.hbm.bandwidthGBps});
    }
    std::sort(chips.begin(), chips.end(),
              [](const ChipSummary& a, const ChipSummary& b) { return a.name < b.name; });
    return chips;
}

std::string installedConfigDir() {
    std::error_code error;
    const fs::path program = fs::read_symlink("/proc/self/exe", error);
    if (error) return "";
    const fs::path configs = program.parent_path().parent_path() / "share" / "ascendsim" / "configs";
    return fs::is_directory(configs, error) ? configs.string() : "";
}

std::string defaultConfigDir(const std::string& fallback) {
    if (const char* dir = std::getenv("ASCENDSIM_CONFIG_DIR"); dir != nullptr && *dir != '\0') {
        return dir;
    }
    if (std::string installed = installedConfigDir(); !installed.empty()) return installed;
    if (const char* src = std::getenv("ASCENDSIM_SOURCE_DIR"); src != nullptr && *src != '\0') {
        return (fs::path(src) / "configs").string();
    }
    return fallback;
}

}  // namespace ascendsim
