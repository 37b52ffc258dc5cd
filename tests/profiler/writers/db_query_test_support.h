#pragma once
// Reading SQLite files in the DB export tests: rows as "a|b|c" strings (NULL as an empty cell).
#include <sqlite3.h>

#include <filesystem>
#include <string>
#include <vector>

namespace ascendsim::testing_support {

// The rows of `sql` on `db` (opened read-only); empty when the file cannot be opened.
inline std::vector<std::string> query(const std::filesystem::path& db, const std::string& sql) {
    sqlite3* handle = nullptr;
    std::vector<std::string> rows;
    if (sqlite3_open_v2(db.string().c_str(), &handle, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
        sqlite3_close(handle);
        return rows;
    }
    sqlite3_exec(
        handle, sql.c_str(),
        [](void* out, int n, char** values, char**) {
            std::string row;
            for (int i = 0; i < n; ++i) {
                if (i != 0) row.push_back('|');
                row.append(values[i] ? values[i] : "");
            }
            static_cast<std::vector<std::string>*>(out)->push_back(row);
            return 0;
        },
        &rows, nullptr);
    sqlite3_close(handle);
    return rows;
}

// The cells of a query() row.
inline std::vector<std::string> cellsOf(const std::string& row) {
    std::vector<std::string> cells;
    std::size_t begin = 0;
    for (std::size_t end; (end = row.find('|', begin)) != std::string::npos; begin = end + 1) {
        cells.push_back(row.substr(begin, end - begin));
    }
    cells.push_back(row.substr(begin));
    return cells;
}

}  // namespace ascendsim::testing_support
