#pragma once
// Running one op type's shape rule as the loader does (catalog defaults filled in), for the
// op-schema tests.
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/workload/schema/op_schema.h"

namespace ascendsim::schema_test {

using Shape = std::vector<std::int64_t>;

inline TensorInfo tensor(const std::string& name, Shape shape, DataType dtype = DataType::Fp16,
                  TensorFormat format = TensorFormat::ND) {
    return TensorInfo{name, std::move(shape), dtype, format, 0};
}

// Runs `type`'s rule with the catalog defaults filled in under the given attributes.
inline std::vector<InferredTensor> infer(const std::string& type, const std::vector<TensorInfo>& inputs,
                                  std::map<std::string, AttrValue> attrs = {}) {
    const OpSchema* schema = findOpSchema(type);
    if (!schema) throw std::runtime_error("no schema " + type);
    for (const auto& spec : schema->attrs) {
        if (!attrs.count(spec.name) && spec.defaultValue) attrs[spec.name] = *spec.defaultValue;
    }
    return schema->infer(inputs, OpAttributes{attrs});
}

inline std::string problemField(const std::string& type, const std::vector<TensorInfo>& inputs,
                         std::map<std::string, AttrValue> attrs = {}) {
    try {
        infer(type, inputs, std::move(attrs));
    } catch (const ShapeProblem& p) {
        return p.field();
    }
    return "no problem";
}

}  // namespace ascendsim::schema_test
