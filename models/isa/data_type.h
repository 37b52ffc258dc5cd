#pragma once
#include <cstdint>
#include <string_view>

namespace ascendsim {

// Element types that instructions and tensors carry. Hf32 is fp32 storage computed in the cube's
// reduced-precision mode.
enum class DataType : std::uint8_t { Fp16, Bf16, Fp32, Hf32, Int8, Uint8, Int16, Int32, Int64, Bool };

std::size_t bytesOf(DataType t);
std::string_view dataTypeName(DataType t);          // "fp16", "bf16", ... as workloads write them
bool parseDataType(std::string_view text, DataType& out);
bool isFloat(DataType t);

}  // namespace ascendsim
