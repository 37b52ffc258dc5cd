#include "models/isa/data_type.h"

#include <array>

namespace ascendsim {

namespace {
struct DataTypeInfo {
    std::string_view name;
    std::size_t bytes;
    bool isFloat;
};
constexpr std::array<DataTypeInfo, 10> kInfo = {{{"fp16", 2, true},
                                                 {"bf16", 2, true},
                                                 {"fp32", 4, true},
                                                 {"hf32", 4, true},
                                                 {"int8", 1, false},
                                                 {"uint8", 1, false},
                                                 {"int16", 2, false},
                                                 {"int32", 4, false},
                                                 {"int64", 8, false},
                                                 {"bool", 1, false}}};
}  // namespace

std::size_t bytesOf(DataType t) { return kInfo[static_cast<std::size_t>(t)].bytes; }
std::string_view dataTypeName(DataType t) { return kInfo[static_cast<std::size_t>(t)].name; }
bool isFloat(DataType t) { return kInfo[static_cast<std::size_t>(t)].isFloat; }

bool parseDataType(std::string_view text, DataType& out) {
    for (std::size_t i = 0; i < kInfo.size(); ++i) {
        if (kInfo[i].name == text) {
            out = static_cast<DataType>(i);
            return true;
        }
    }
    if (text == "float16") return out = DataType::Fp16, true;
    if (text == "float32" || text == "float") return out = DataType::Fp32, true;
    if (text == "bfloat16") return out = DataType::Bf16, true;
    return false;
}

}  // namespace ascendsim
