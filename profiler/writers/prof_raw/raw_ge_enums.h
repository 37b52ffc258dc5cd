#pragma once
// GE's data type and format numbers, as tensor_info records carry them and msprof prints them
// back by name (Ascend/msprof analysis/common_func/ms_constant/ge_enum_constant.py GeDataType,
// GeDataFormat). op_summary spells data types and formats with these same names ("FLOAT16",
// "DT_BF16", "NC1HWC0"), so a name maps to its number and back without loss.
#include <cstdint>
#include <optional>
#include <string>

namespace ascendsim {

std::uint32_t geDataTypeNumber(const std::string& name);  // unknown: DT_UNDEFINED (28)
std::uint32_t geFormatNumber(const std::string& name);    // unknown: RESERVED (40)
std::optional<std::string> geDataTypeName(std::uint32_t number);
std::optional<std::string> geFormatName(std::uint32_t number);

}  // namespace ascendsim
