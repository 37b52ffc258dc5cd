#include "profiler/format/number_format.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
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

// A positive double's decimal digits d1d2...dn and exponent e (value = d1.d2...dn × 10^e), from
// to_chars's scientific form: the shortest round-trip digits, or `precision` digits after the first.
struct DecimalDigits {
    char digits[32];
    std::size_t count = 0;
    int exponent = 0;
};

DecimalDigits decimalDigitsOf(double magnitude, std::optional<int> precision) {
    char scientific[64];
    char* const limit = scientific + sizeof scientific;
    const char* const end =
        precision ? std::to_chars(scientific, limit, magnitude, std::chars_format::scientific, *precision).ptr
                  : std::to_chars(scientific, limit, magnitude, std::chars_format::scientific).ptr;
    const char* const ePos = std::find(static_cast<const char*>(scientific), end, 'e');
    DecimalDigits d;
    for (const char* c = scientific; c != ePos; ++c)
        if (*c != '.') d.digits[d.count++] = *c;
    std::from_chars(ePos + 1 + (ePos[1] == '+' ? 1 : 0), end, d.exponent);
    return d;
}

// sqliteRound for counts of units past 19 digits (digits > 3): the same digits through a long double.
double sqliteRoundWide(double value, const char* mantissa, std::size_t mantissaSize, std::size_t keep, int digits) {
    std::string kept(mantissa, std::min(mantissaSize, keep));
    kept.append(keep - kept.size(), '0');
    const bool roundUp = keep < mantissaSize && mantissa[keep] >= '5';
    long double units = kept.empty() ? 0.0L : std::strtold(kept.c_str(), nullptr);
    if (roundUp) units += 1.0L;
    char text[96];
    std::snprintf(text, sizeof text, "%.0Lfe-%d", units, digits);
    const double rounded = std::strtod(text, nullptr);
    return value < 0 ? -rounded : rounded;
}

}  // namespace

std::string pythonFloatRepr(double value) {
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value < 0 ? "-inf" : "inf";
    if (value == 0.0) return std::signbit(value) ? "-0.0" : "0.0";

    // Shortest round-trip digits (on the stack: this runs for every duration of every trace event
    // and every PMU cell).
    const DecimalDigits decimal = decimalDigitsOf(std::fabs(value), std::nullopt);
    const char* const digits = decimal.digits;
    const std::size_t digitCount = decimal.count;
    const int decimalPoint = decimal.exponent + 1;

    char text[64];
    char* out = text;
    if (value < 0) *out++ = '-';
    const auto put = [&out](const char* from, std::size_t n) {
        std::memcpy(out, from, n);
        out += n;
    };
    if (decimalPoint <= kPythonReprMinDecimalPoint || decimalPoint > kPythonReprMaxDecimalPoint) {
        *out++ = digits[0];
        if (digitCount > 1) {
            *out++ = '.';
            put(digits + 1, digitCount - 1);
        }
        const int shown = decimalPoint - 1;
        *out++ = 'e';
        *out++ = shown < 0 ? '-' : '+';
        const int magnitude = std::abs(shown);
        if (magnitude < 10) *out++ = '0';
        out = std::to_chars(out, text + sizeof text, magnitude).ptr;
        return std::string(text, out);
    }
    if (decimalPoint <= 0) {
        put("0.", 2);
        out = std::fill_n(out, -decimalPoint, '0');
        put(digits, digitCount);
        return std::string(text, out);
    }
    const auto pointAt = static_cast<std::size_t>(decimalPoint);
    if (digitCount <= pointAt) {
        put(digits, digitCount);
        out = std::fill_n(out, pointAt - digitCount, '0');
        put(".0", 2);
        return std::string(text, out);
    }
    put(digits, pointAt);
    *out++ = '.';
    put(digits + pointAt, digitCount - pointAt);
    return std::string(text, out);
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
    // to_chars with a precision prints exactly what printf("%.14e") prints, without printf's cost.
    const DecimalDigits decimal = decimalDigitsOf(std::fabs(value), kSqliteSignificantDigits - 1);
    const char* const mantissa = decimal.digits;
    const std::size_t mantissaSize = decimal.count;
    const int exponent = decimal.exponent;
    // Integer count of units of 10^-digits, from the digits: value = 0.mantissa × 10^(exponent+1).
    const int keep = exponent + 1 + digits;  // mantissa digits that stay
    if (keep < 0) return value < 0 ? -0.0 : 0.0;
    const auto kept = static_cast<std::size_t>(keep);
    // |value| <= 2^52 keeps at most 16 integer digits and `digits` decimals: the count fits 64 bits
    // for digits <= 3, the precision msprof's SQL uses; wider roundings take the long double path.
    if (kept > 19) return sqliteRoundWide(value, mantissa, mantissaSize, kept, digits);
    std::uint64_t units = 0;
    for (std::size_t i = 0; i < kept; ++i) units = units * 10 + (i < mantissaSize ? mantissa[i] - '0' : 0);
    if (kept < mantissaSize && mantissa[kept] >= '5') ++units;
    // Parse "units e-digits" as decimal text so the result is the double nearest to it.
    char text[64];
    constexpr std::size_t kExponentRoom = 16;  // "e-" and the digits count
    char* end = std::to_chars(text, text + sizeof text - kExponentRoom, units).ptr;
    end = std::copy_n("e-", 2, end);
    end = std::to_chars(end, text + sizeof text, digits).ptr;
    double rounded = 0.0;
    std::from_chars(text, end, rounded);
    return value < 0 ? -rounded : rounded;
}

std::string pythonRound3(double value) { return pythonFloatRepr(sqliteRound(value, 3)); }

}  // namespace ascendsim
