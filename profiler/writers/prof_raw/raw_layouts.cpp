#include "profiler/writers/prof_raw/raw_layouts.h"

namespace ascendsim {

std::uint32_t geTaskTypeOf(TaskType type) {
    switch (type) {
        case TaskType::AiCore: return 0;
        case TaskType::AiCpu: return 1;
        case TaskType::AiVectorCore: return 2;
        case TaskType::MixAic: return 4;
        case TaskType::MixAiv: return 5;
    }
    return 0;
}

bool taskTypeOfGe(std::uint32_t geType, TaskType& type) {
    for (TaskType t : {TaskType::AiCore, TaskType::AiCpu, TaskType::AiVectorCore, TaskType::MixAic, TaskType::MixAiv}) {
        if (geTaskTypeOf(t) == geType) {
            type = t;
            return true;
        }
    }
    return false;
}

}  // namespace ascendsim
