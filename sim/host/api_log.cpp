#include "sim/host/api_log.h"

namespace ascendsim {

void ApiLog::setCollection(bool npuActivity, ProfilerLevel level) {
    aclAndNode_ = npuActivity && level != ProfilerLevel::LevelNone;
    runtime_ = npuActivity && level == ProfilerLevel::Level2;
}

bool ApiLog::collects(ApiLevel level) const {
    return level == ApiLevel::Runtime ? runtime_ : aclAndNode_;
}

std::uint64_t ApiLog::add(ApiLevel level, const std::string& name, std::uint64_t startNs,
                          std::uint64_t endNs, std::uint32_t threadId) {
    const std::uint64_t id = nextConnectionId_++;
    if (collects(level)) {
        ApiRecord api;
        api.level = level;
        api.name = name;
        api.startNs = startNs;
        api.endNs = endNs;
        api.threadId = threadId;
        api.connectionId = id;
        records_.push_back(std::move(api));
    }
    return id;
}

}  // namespace ascendsim
