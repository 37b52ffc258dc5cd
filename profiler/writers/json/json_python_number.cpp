#include "profiler/writers/json/json_python_number.h"

#include "profiler/format/number_format.h"

namespace ascendsim {

PythonNumber PythonNumber::operator+(const PythonNumber& o) const {
    if (!isFloat_ && !o.isFloat_) return ofInt(intValue_ + o.intValue_);
    return ofFloat(asDouble() + o.asDouble());
}

PythonNumber PythonNumber::operator-(const PythonNumber& o) const {
    if (!isFloat_ && !o.isFloat_) return ofInt(intValue_ - o.intValue_);
    return ofFloat(asDouble() - o.asDouble());
}

std::string PythonNumber::text() const {
    return isFloat_ ? pythonFloatRepr(floatValue_) : std::to_string(intValue_);
}

}  // namespace ascendsim
