#include "sim/workload/expression.h"

#include <cctype>
#include <limits>

namespace ascendsim {

namespace {

bool isIdentStart(char c) {
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool isIdentChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// Recursive-descent integer evaluator over already-substituted text; bare identifiers are looked
// up in `params` (used inside `${...}`).
class IntegerParser {
  public:
    IntegerParser(const std::string& text, const ParameterValues& params)
        : text_(text), params_(params) {}

    std::int64_t parseAll() {
        std::int64_t value = parseSum();
        skipSpaces();
        if (pos_ != text_.size()) fail("unexpected '" + text_.substr(pos_, 1) + "'");
        return value;
    }

  private:
    [[noreturn]] void fail(const std::string& why) const {
        throw ExpressionError("in integer expression '" + text_ + "': " + why);
    }
    void skipSpaces() {
        while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    }
    bool accept(char c) {
        skipSpaces();
        if (pos_ < text_.size() && text_[pos_] == c) return ++pos_, true;
        return false;
    }
    std::int64_t parseSum() {
        std::int64_t value = parseProduct();
        for (;;) {
            if (accept('+'))
                value += parseProduct();
            else if (accept('-'))
                value -= parseProduct();
            else
                return value;
        }
    }
    std::int64_t parseProduct() {
        std::int64_t value = parseUnary();
        for (;;) {
            if (accept('*')) {
                value *= parseUnary();
            } else if (accept('/')) {
                std::int64_t divisor = parseUnary();
                if (divisor == 0) fail("division by zero");
                value /= divisor;
            } else if (accept('%')) {
                std::int64_t divisor = parseUnary();
                if (divisor == 0) fail("modulo by zero");
                value %= divisor;
            } else {
                return value;
            }
        }
    }
    std::int64_t parseUnary() {
        if (accept('-')) return -parseUnary();
        if (accept('+')) return parseUnary();
        return parsePrimary();
    }
    std::int64_t parsePrimary() {
        skipSpaces();
        if (accept('(')) {
            std::int64_t value = parseSum();
            if (!accept(')')) fail("missing ')'");
            return value;
        }
        if (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
            std::int64_t value = 0;
            while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
                if (value > (std::numeric_limits<std::int64_t>::max() - 9) / 10)
                    fail("number too large");
                value = value * 10 + (text_[pos_++] - '0');
            }
            if (pos_ < text_.size() && (isIdentChar(text_[pos_]) || text_[pos_] == '.')) {
                fail("not an integer");
            }
            return value;
        }
        if (pos_ < text_.size() && isIdentStart(text_[pos_])) {
            std::size_t start = pos_;
            while (pos_ < text_.size() && isIdentChar(text_[pos_])) ++pos_;
            std::string name = text_.substr(start, pos_ - start);
            auto it = params_.find(name);
            if (it == params_.end()) fail("unknown parameter '" + name + "'");
            return IntegerParser(it->second, params_).parseAll();
        }
        fail(pos_ < text_.size() ? "unexpected '" + text_.substr(pos_, 1) + "'" : "missing value");
    }

    const std::string& text_;
    const ParameterValues& params_;
    std::size_t pos_ = 0;
};

const std::string& lookup(const std::string& name, const ParameterValues& params) {
    auto it = params.find(name);
    if (it == params.end()) throw ExpressionError("unknown parameter '" + name + "'");
    return it->second;
}

}  // namespace

bool containsSubstitution(const std::string& text) {
    return text.find('$') != std::string::npos;
}

std::string substituteParameters(const std::string& text, const ParameterValues& params) {
    std::string out;
    for (std::size_t i = 0; i < text.size();) {
        if (text[i] != '$') {
            out += text[i++];
            continue;
        }
        if (i + 1 < text.size() && text[i + 1] == '{') {
            std::size_t close = text.find('}', i + 2);
            if (close == std::string::npos)
                throw ExpressionError("missing '}' after '${' in '" + text + "'");
            std::string inner = text.substr(i + 2, close - i - 2);
            bool plainName = !inner.empty() && isIdentStart(inner[0]);
            for (char c : inner) plainName = plainName && isIdentChar(c);
            out += plainName ? lookup(inner, params)
                             : std::to_string(IntegerParser(inner, params).parseAll());
            i = close + 1;
            continue;
        }
        std::size_t end = i + 1;
        while (end < text.size() && isIdentChar(text[end])) ++end;
        if (end == i + 1 || !isIdentStart(text[i + 1])) {
            throw ExpressionError("'$' must be followed by a parameter name in '" + text + "'");
        }
        out += lookup(text.substr(i + 1, end - i - 1), params);
        i = end;
    }
    return out;
}

std::int64_t evaluateInteger(const std::string& text, const ParameterValues& params) {
    std::string substituted = substituteParameters(text, params);
    return IntegerParser(substituted, params).parseAll();
}

std::optional<std::int64_t> tryEvaluateInteger(const std::string& text,
                                               const ParameterValues& params) {
    std::string substituted = substituteParameters(text, params);
    try {
        return IntegerParser(substituted, ParameterValues{}).parseAll();
    } catch (const ExpressionError&) {
        return std::nullopt;
    }
}

std::string resolveParameterText(const std::string& text, const ParameterValues& params) {
    std::string substituted = substituteParameters(text, params);
    try {
        return std::to_string(IntegerParser(substituted, ParameterValues{}).parseAll());
    } catch (const ExpressionError&) {
        return substituted;
    }
}

}  // namespace ascendsim
