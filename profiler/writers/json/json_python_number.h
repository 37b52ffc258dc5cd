#pragma once
// A Python number as torch_npu's parsers produce it: sums start from the int 0 and become floats
// once a float is added, so an empty bucket prints "0" while a filled one prints "145.57"
// (formats.md §3.3, §3.4: step_trace_time "Bubble" is "0", operator_details device columns "0").
#include <cstdint>
#include <string>

namespace ascendsim {

class PythonNumber {
public:
    PythonNumber() = default;  // the int 0
    static PythonNumber ofInt(std::int64_t v) { PythonNumber n; n.intValue_ = v; return n; }
    static PythonNumber ofFloat(double v) { PythonNumber n; n.isFloat_ = true; n.floatValue_ = v; return n; }

    bool isFloat() const { return isFloat_; }
    double asDouble() const { return isFloat_ ? floatValue_ : static_cast<double>(intValue_); }

    PythonNumber operator+(const PythonNumber& o) const;
    PythonNumber operator-(const PythonNumber& o) const;
    PythonNumber& operator+=(const PythonNumber& o) { return *this = *this + o; }

    // str()/repr() of the value: "0", "-1", "8873.756000000001", "0.0".
    std::string text() const;

private:
    bool isFloat_ = false;
    std::int64_t intValue_ = 0;
    double floatValue_ = 0.0;
};

}  // namespace ascendsim
