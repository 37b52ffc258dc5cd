#pragma once
// Schemas of the ops the transformer training samples use (docs/op-catalog.md, "Ops of the LLM
// samples"), appended to the op-schema table by op_schema.cpp.
#include <vector>

#include "sim/workload/schema/op_schema.h"

namespace ascendsim {

void appendTransformerSchemas(std::vector<OpSchema>& schemas);

}  // namespace ascendsim
