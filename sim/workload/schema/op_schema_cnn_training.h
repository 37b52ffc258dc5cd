#pragma once
// Schemas and shape rules of the ops the CNN training samples use that the older tables lack
// (docs/op-catalog.md, "Ops of the CNN training samples": the 910A and 910B2 AlexNet exports),
// appended to the op-schema table by op_schema.cpp.
#include <vector>

#include "sim/workload/schema/op_schema.h"

namespace ascendsim {

void appendCnnTrainingSchemas(std::vector<OpSchema>& schemas);

}  // namespace ascendsim
