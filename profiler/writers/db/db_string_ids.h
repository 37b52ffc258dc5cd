#pragma once
// STRING_IDS interning for the DB export: each distinct string gets the next id from a start
// value, in first-use order (CANN strings from 0, torch_npu's from 1 << 28; formats.md §5.1).
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "profiler/writers/db/db_sqlite.h"

namespace ascendsim {

class DbStringIds {
  public:
    explicit DbStringIds(std::int64_t firstId) : next_(firstId) {}
    std::int64_t id(const std::string& value);
    // (id, value) rows in id order, appended to `rows`.
    void appendRows(std::vector<std::vector<DbValue>>& rows) const;

  private:
    std::int64_t next_;
    std::map<std::string, std::int64_t> ids_;
    std::vector<std::string> order_;
};

}  // namespace ascendsim
