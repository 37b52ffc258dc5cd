#pragma once
// Number → text exactly as the real writers print numbers (formats.md §2, §3.1, §3.2, §3.9;
// reference README observation 3). Each function names the program whose formatting it copies.
#include <string>

namespace ascendsim {

// Python repr(float): the shortest text that round-trips, always with a '.' or an exponent
// ("1452.0", "8827.472999999998", "0.0"); exponent form when the decimal exponent is < -4 or
// >= 16 ("1e-05", "4.1e-05", "1e+16"); "inf", "-inf", "nan".
std::string pythonFloatRepr(double value);

// msprof C++ DoubleToStr: fixed 3 decimals, then trailing zeros and a bare '.' stripped
// ("1959.079", "17.7", "1", "0").
std::string msprofDoubleToStr(double value);

// printf("%.3f"): "1892.920", "0.000".
std::string fixed3(double value);

// C printf("%f") / std::to_string(double): six decimals, "1881.080000".
std::string cFixed6(double value);

// SQLite ROUND(x, digits) as msprof's SQL applies it: half away from zero on the value's first 15
// significant decimal digits (so ROUND(2.675,2) = 2.68 and ROUND(-1.0005,3) = -1.001, unlike C's
// printf). Values beyond 2^52 are returned unchanged, digits < 0 count as 0.
double sqliteRound(double value, int digits);

// The common PMU cell: SQLite ROUND(x,3) printed by Python (torch_npu re-writes op_summary values
// it read as floats): "0.052", "1883.842", "0.0".
std::string pythonRound3(double value);

}  // namespace ascendsim
