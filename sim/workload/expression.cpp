#include "sim/workload/expression.h"

#include <cctype>
#include <limits>

namespace ascendsim {

namespace {

// Deeper nesting (parentheses and unary signs) than this is not a workload someone wrote by
// hand; without a limit, 50,000 '(' overflow the stack (each level is four recursive frames).
constexpr int kMaxNesting = 256;
// A parameter that names a parameter that names ... : the limit also catches `a: $b`, `b: $a`.
constexpr int kMaxParameterChain = 64;

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
    // `chain` and `depth`: how deep the parameter that referred here already was, so nesting
    // through parameters counts against the same limits (a parameter naming itself inside 60
    // parentheses overflowed the stack: fuzz_expression, docs/reliability.md).
    IntegerParser(const std::string& text, const ParameterValues& params, int chain = 0,
                  int depth = 0)
        : text_(text), params_(params), chain_(chain), depth_(depth) {}

    std::int64_t parseAll() {
        std::int64_t value = parseSum();
        skipSpaces();
        if (pos_ != text_.size()) fail("unexpected '" + text_.substr(pos_, 1) + "'");
        return value;
    }

  private:
    [[noreturn]] void fail(const std::string& why) const {
        constexpr std::size_t kShown = 80;  // a 50 kB expression is not repeated in full
        const std::string shown =
            text_.size() <= kShown ? text_ : text_.substr(0, kShown) + "... (" +
                                                 std::to_string(text_.size()) + " characters)";
        throw ExpressionError("in integer expression '" + shown + "': " + why);
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
                value = checked(value, '+', parseProduct());
            else if (accept('-'))
                value = checked(value, '-', parseProduct());
            else
                return value;
        }
    }
    std::int64_t parseProduct() {
        std::int64_t value = parseUnary();
        for (;;) {
            if (accept('*')) {
                value = checked(value, '*', parseUnary());
            } else if (accept('/')) {
                std::int64_t divisor = parseUnary();
                if (divisor == 0) fail("division by zero");
                if (divisor == -1) overflowIfMin(value);
                value /= divisor;
            } else if (accept('%')) {
                std::int64_t divisor = parseUnary();
                if (divisor == 0) fail("modulo by zero");
                if (divisor == -1) overflowIfMin(value);
                value %= divisor;
            } else {
                return value;
            }
        }
    }
    // a op b for + - *, or an error where the result does not fit: signed overflow is undefined
    // and in practice wraps into a plausible-looking wrong value.
    std::int64_t checked(std::int64_t a, char op, std::int64_t b) const {
        std::int64_t result = 0;
        bool overflowed = op == '+'   ? __builtin_add_overflow(a, b, &result)
                          : op == '-' ? __builtin_sub_overflow(a, b, &result)
                                      : __builtin_mul_overflow(a, b, &result);
        if (overflowed)
            fail(std::to_string(a) + " " + op + " " + std::to_string(b) +
                 " does not fit a 64-bit signed integer");
        return result;
    }
    void overflowIfMin(std::int64_t value) const {
        if (value == std::numeric_limits<std::int64_t>::min())
            fail(std::to_string(value) + " does not fit a 64-bit signed integer when negated");
    }
    std::int64_t parseUnary() {
        NestingGuard guard(*this);
        if (accept('-')) {
            std::int64_t value = parseUnary();
            overflowIfMin(value);
            return -value;
        }
        if (accept('+')) return parseUnary();
        return parsePrimary();
    }
    std::int64_t parsePrimary() {
        skipSpaces();
        if (accept('(')) {  // counted by parseUnary's guard: every '(' passes through it
            std::int64_t value = parseSum();
            if (!accept(')')) fail("missing ')'");
            return value;
        }
        if (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
            std::int64_t value = 0;
            while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
                const int digit = text_[pos_++] - '0';
                if (value > (std::numeric_limits<std::int64_t>::max() - digit) / 10)
                    fail("number does not fit a 64-bit signed integer");
                value = value * 10 + digit;
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
            if (chain_ >= kMaxParameterChain)
                fail("parameter '" + name + "' refers to parameters more than " +
                     std::to_string(kMaxParameterChain) + " deep (does it refer to itself?)");
            return IntegerParser(it->second, params_, chain_ + 1, depth_).parseAll();
        }
        fail(pos_ < text_.size() ? "unexpected '" + text_.substr(pos_, 1) + "'" : "missing value");
    }

    // Counts nesting (parentheses and unary signs) while it lives.
    class NestingGuard {
      public:
        explicit NestingGuard(IntegerParser& p) : p_(p) {
            if (++p_.depth_ > kMaxNesting)
                p_.fail("nested deeper than " + std::to_string(kMaxNesting) + " levels");
        }
        ~NestingGuard() { --p_.depth_; }
        NestingGuard(const NestingGuard&) = delete;
        NestingGuard& operator=(const NestingGuard&) = delete;

      private:
        IntegerParser& p_;
    };

    const std::string& text_;
    const ParameterValues& params_;
    int chain_ = 0;
    int depth_ = 0;
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
