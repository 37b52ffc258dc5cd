#pragma once
// Parameter substitution and integer arithmetic in workload values.
//   `$name` or `${name}`  -> the parameter's text
//   `${expr}`             -> the integer value of expr (bare names inside are parameters)
// then, where a field wants an integer, the text is evaluated with + - * / % and parentheses.
// Division truncates toward zero, like C.
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>

namespace ascendsim {

// A problem in one expression; the caller adds file, line and field.
class ExpressionError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

using ParameterValues = std::map<std::string, std::string>;

bool containsSubstitution(const std::string& text);
std::string substituteParameters(const std::string& text, const ParameterValues& params);
std::int64_t evaluateInteger(const std::string& text, const ParameterValues& params);
// Substitutes, then evaluates; nullopt when the result is not an integer expression.
std::optional<std::int64_t> tryEvaluateInteger(const std::string& text,
                                               const ParameterValues& params);
// Substitutes; then an integer expression becomes its canonical decimal text, anything else
// (a tensor name, a float) stays as substituted text. Used for parameter values.
std::string resolveParameterText(const std::string& text, const ParameterValues& params);

}  // namespace ascendsim
