#pragma once
// Small checked accessors over yaml-cpp nodes that turn every problem into a WorkloadError with
// the node's line and column and the YAML key path.
#include <yaml-cpp/yaml.h>

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "sim/workload/workload_error.h"

namespace ascendsim {

class YamlReader {
  public:
    explicit YamlReader(std::string file) : file_(std::move(file)) {}

    const std::string& file() const { return file_; }
    SourceLocation locationOf(const YAML::Node& node) const;
    [[noreturn]] void fail(const YAML::Node& node, const std::string& field,
                           const std::string& problem) const;

    // Every key of `map` must be one of `allowed`; a typo names the key and the accepted ones.
    void requireKnownKeys(const YAML::Node& map, std::initializer_list<std::string_view> allowed,
                          const std::string& field) const;
    void requireMap(const YAML::Node& node, const std::string& field) const;
    void requireSequence(const YAML::Node& node, const std::string& field) const;
    std::string scalar(const YAML::Node& node, const std::string& field) const;
    // A scalar, or a sequence of scalars.
    std::vector<std::string> scalarList(const YAML::Node& node, const std::string& field) const;
    bool boolean(const YAML::Node& node, const std::string& field) const;

  private:
    std::string file_;
};

}  // namespace ascendsim
