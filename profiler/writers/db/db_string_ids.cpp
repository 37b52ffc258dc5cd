#include "profiler/writers/db/db_string_ids.h"

namespace ascendsim {

std::int64_t DbStringIds::id(const std::string& value) {
    const auto [it, inserted] = ids_.try_emplace(value, next_);
    if (inserted) {
        order_.push_back(value);
        ++next_;
    }
    return it->second;
}

void DbStringIds::appendRows(std::vector<std::vector<DbValue>>& rows) const {
    for (const std::string& value : order_) rows.push_back({ids_.at(value), value});
}

}  // namespace ascendsim
