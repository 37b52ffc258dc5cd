#include "profiler/format/number_format.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <system_error>

namespace ascendsim {

namespace {

// Python switches from fixed to exponent notation when the decimal point position (digits
// d1d2… = 0.d1d2… × 10^decimalPoint) is at most -4 or above 16 (CPython float_repr 'r' mode).
constexpr int kPythonReprMinDecimalPoint = -4;
constexpr int kPythonReprMaxDecimalPoint = 16;

// Largest double whose ROUND() SQLite leaves alone (4503599627370496 = 2^52, func.c roundFunc).
constexpr double kSqliteRoundLimit = 4503599627370496.0;
// Significant decimal digits SQLite's printf produces for a double before rounding.
constexpr int kSqliteSignificantDigits = 15;

}  // namespace

std::string pythonFloatRepr(double value) {
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value < 0 ? "-inf" : "inf";
    if (value == 0.0) return std::signbit(value) ? "-0.0" : "0.0";

    // Shortest round-trip digits, in scientific form "d.ddde±XX".
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, std::fabs(value),
                                      std::chars_format::scientific);
    const std::string scientific(buffer, result.ptr);
    const std::size_t ePos = scientific.find('e');
    std::string digits;
    for (std::size_t i = 0; i < ePos; ++i) {
        if (scientific[i] != '.') digits.push_back(scientific[i]);
    }
    const int exponent = std::atoi(scientific.c_str() + ePos + 1);
    const int decimalPoint = exponent + 1;

    std::string text = value < 0 ? "-" : "";
    if (decimalPoint <= kPythonReprMinDecimalPoint || decimalPoint > kPythonReprMaxDecimalPoint) {
        text.push_back(digits[0]);
        if (digits.size() > 1) {
            text.push_back('.');
            text.append(digits, 1, std::string::npos);
        }
        const int shown = decimalPoint - 1;
        char exponentText[16];
        std::snprintf(exponentText, sizeof exponentText, "e%c%02d", shown < 0 ? '-' : '+',
                      std::abs(shown));
        text.append(exponentText);
        return text;
    }
    if (decimalPoint <= 0) {
        text.append("0.");
        text.append(static_cast<std::size_t>(-decimalPoint), '0');
        text.append(digits);
        return text;
    }
    const auto pointAt = static_cast<std::size_t>(decimalPoint);
    if (digits.size() <= pointAt) {
        text.append(digits);
        text.append(pointAt - digits.size(), '0');
        text.append(".0");
        return text;
    }
    text.append(digits, 0, pointAt);
    text.push_back('.');
    text.append(digits, pointAt, std::string::npos);
    return text;
}

std::string fixed3(double value) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.3f", value);
    return buffer;
}

std::string cFixed6(double value) {
    char buffer[512];
    std::snprintf(buffer, sizeof buffer, "%f", value);
    return buffer;
}

std::string msprofDoubleToStr(double value) {
    std::string text = fixed3(value);
    if (text.find('.') == std::string::npos) return text;
    while (!text.empty() && text.back() == '0') text.pop_back();
    if (!text.empty() && text.back() == '.') text.pop_back();
    if (text == "-0") text = "0";
    return text;
}

double sqliteRound(double value, int digits) {
    if (digits < 0) digits = 0;
    if (value < -kSqliteRoundLimit || value > kSqliteRoundLimit) return value;
    if (digits == 0) {
        return static_cast<double>(static_cast<long long>(value + (value < 0 ? -0.5 : 0.5)));
    }
    // SQLite's printf works on the value's first kSqliteSignificantDigits decimal digits and
    // rounds half away from zero there (checked against SQLite 3.40's ROUND on 400k values).
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*e", kSqliteSignificantDigits - 1,
                  std::fabs(value));
    const std::string scientific(buffer);
    const std::size_t ePos = scientific.find('e');
    std::string mantissa;
    for (std::size_t i = 0; i < ePos; ++i) {
        if (scientific[i] != '.') mantissa.push_back(scientific[i]);
    }
    const int exponent = std::atoi(scientific.c_str() + ePos + 1);
    // Integer count of units of 10^-digits, from the digits: value = 0.mantissa × 10^(exponent+1).
    const int keep = exponent + 1 + digits;  // mantissa digits that stay
    if (keep < 0) return value < 0 ? -0.0 : 0.0;
    std::string kept = mantissa.substr(0, std::min<std::size_t>(mantissa.size(), static_cast<std::size_t>(keep)));
    kept.append(static_cast<std::size_t>(keep) - kept.size(), '0');
    const bool roundUp = static_cast<std::size_t>(keep) < mantissa.size() &&
                         mantissa[static_cast<std::size_t>(keep)] >= '5';
    long double units = kept.empty() ? 0.0L : std::strtold(kept.c_str(), nullptr);
    if (roundUp) units += 1.0L;
    // Parse "units e-digits" as decimal text so the result is the double nearest to it.
    char text[96];
    std::snprintf(text, sizeof text, "%.0Lfe-%d", units, digits);
    const double rounded = std::strtod(text, nullptr);
    return value < 0 ? -rounded : rounded;
}

std::string pythonRound3(double value) { return pythonFloatRepr(sqliteRound(value, 3)); }

}  // namespace ascendsim
