#pragma once
// CANN's module list in module-id order (ids 0..76): the rows of npu_module_mem (sorted by module
// id) and the DB's ENUM_MODULE / NPU_MODULE_MEM.moduleId. A fixed enumeration of the tool, as the
// real DBs list it (e5a31957 ENUM_MODULE; CUSTOM, 77, is only an ENUM_MODULE row).
#include <cstdint>
#include <string>
#include <vector>

namespace ascendsim {

const std::vector<std::string>& cannModuleNames();

// The id of `module` in cannModuleNames(), or -1.
std::int64_t cannModuleId(const std::string& module);

}  // namespace ascendsim
