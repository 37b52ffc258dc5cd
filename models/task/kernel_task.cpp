#include "models/task/kernel_task.h"

#include <array>

namespace ascendsim {

std::string_view taskTypeName(TaskType t) {
    static constexpr std::array<std::string_view, 5> kNames = {"AI_CORE", "AI_VECTOR_CORE",
                                                               "MIX_AIC", "MIX_AIV", "AI_CPU"};
    return kNames[static_cast<std::size_t>(t)];
}

}  // namespace ascendsim
