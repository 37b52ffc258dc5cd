#pragma once
// An operator ready to be lowered: resolved shapes, dtypes, device addresses and attributes. The
// workload layer (sim/workload) validates and builds these; kernels (models/kernels) lower them.
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "models/isa/data_type.h"

namespace ascendsim {

enum class TensorFormat : std::uint8_t { ND, NCHW, NHWC, NC1HWC0, FractalNz, FractalZ };
std::string_view tensorFormatName(TensorFormat f);  // "ND", "NCHW", ..., "FRACTAL_NZ"
bool parseTensorFormat(std::string_view text, TensorFormat& out);

struct TensorInfo {
    std::string name;
    std::vector<std::int64_t> shape;
    DataType dtype = DataType::Fp16;
    TensorFormat format = TensorFormat::ND;
    std::uint64_t deviceAddr = 0;  // GM byte address

    std::int64_t elementCount() const;
    std::uint64_t bytes() const;
};

using AttrValue = std::variant<std::int64_t, double, bool, std::string, std::vector<std::int64_t>>;

struct OpInstance {
    std::string name;   // unique op name in the workload, e.g. "layer1.0.conv1"
    std::string type;   // "Conv2D", "MatMul", "Add", ...
    std::vector<TensorInfo> inputs;
    std::vector<TensorInfo> outputs;
    std::map<std::string, AttrValue> attrs;
    std::optional<std::uint32_t> blockDim;  // user override; absent = default like CANN

    std::int64_t intAttr(const std::string& key, std::int64_t fallback) const;
    double floatAttr(const std::string& key, double fallback) const;
    bool boolAttr(const std::string& key, bool fallback) const;
    std::string stringAttr(const std::string& key, const std::string& fallback) const;
    std::vector<std::int64_t> intsAttr(const std::string& key,
                                       const std::vector<std::int64_t>& fallback) const;
};

// A lowering that cannot be done (block_dim beyond the chip, a tile that cannot fit, an
// unsupported dtype). The message names the op and the reason.
class LoweringError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Throws LoweringError("op 'NAME' (TYPE): reason").
[[noreturn]] void throwLoweringError(const OpInstance& op, const std::string& reason);

}  // namespace ascendsim
