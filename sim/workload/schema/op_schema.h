#pragma once
// One schema per op type of docs/op-catalog.md: input/output counts, attributes with their types
// and defaults, and the shape rule. The loader rejects any type not in this table.
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "models/kernels/op_instance.h"

namespace ascendsim {

enum class AttrType : std::uint8_t { Int, Float, Bool, String, Ints };
std::string_view attrTypeName(AttrType t);

struct AttrSpec {
    std::string name;
    AttrType type = AttrType::Int;
    bool required = false;
    std::optional<AttrValue> defaultValue;  // filled into the op when absent
    std::vector<std::string> allowed;       // String attrs: the accepted values (empty = any)
};

// What shape inference promises for one output.
struct InferredTensor {
    std::vector<std::int64_t> shape;
    DataType dtype = DataType::Fp16;
    TensorFormat format = TensorFormat::ND;
    // Only the element count is determined (TransData): a declared output may choose the shape.
    bool elementCountOnly = false;
};

// A shape rule violation. `field` is relative to the op: "inputs[1]", "attrs.kv_len", "outputs[0]".
class ShapeProblem : public std::runtime_error {
  public:
    ShapeProblem(std::string field, const std::string& problem)
        : std::runtime_error(problem), field_(std::move(field)) {}
    const std::string& field() const { return field_; }

  private:
    std::string field_;
};

struct OpAttributes {
    const std::map<std::string, AttrValue>& values;
    // The ranks of the collective's group: the collectives' shape rules scale dim 0 by it.
    std::uint32_t ranks = 1;
    std::int64_t intValue(const std::string& key) const;
    bool boolValue(const std::string& key) const;
    std::string stringValue(const std::string& key) const;
    std::vector<std::int64_t> intsValue(const std::string& key) const;
};

using ShapeRule = std::function<std::vector<InferredTensor>(const std::vector<TensorInfo>& inputs,
                                                            const OpAttributes& attrs)>;

struct OpSchema {
    std::string type;
    std::size_t minInputs = 1;
    std::size_t maxInputs = 1;
    std::size_t outputs = 1;  // 0: as many as the shape rule infers (Foreach ops: one per list entry)
    std::vector<AttrSpec> attrs;
    std::string taskType;  // "AI_CORE", "MIX_AIC", "AI_VECTOR_CORE", "AI_CPU" as the catalog says
    ShapeRule infer;

    const AttrSpec* findAttr(std::string_view name) const;
};

const OpSchema* findOpSchema(std::string_view type);
const std::vector<OpSchema>& allOpSchemas();
std::string knownOpTypesText();  // "Add, AdaptiveAvgPool2d, ..." for error messages

}  // namespace ascendsim
