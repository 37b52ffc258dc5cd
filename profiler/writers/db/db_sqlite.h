#pragma once
// A minimal RAII wrapper over the SQLite C API for the DB exports: open a fresh file, run
// statements, insert rows with bound values. Errors throw std::runtime_error with SQLite's message.
#include <cstdint>
#include <filesystem>
#include <string>
#include <variant>
#include <vector>

struct sqlite3;

namespace ascendsim {

struct DbNull {
    friend constexpr bool operator==(DbNull, DbNull) { return true; }
};
using DbValue = std::variant<DbNull, std::int64_t, double, std::string>;

class DbFile {
public:
    // Creates `path` (replacing an existing file) and opens it.
    explicit DbFile(const std::filesystem::path& path);
    ~DbFile();
    DbFile(const DbFile&) = delete;
    DbFile& operator=(const DbFile&) = delete;

    void execute(const std::string& sql);
    // INSERT INTO table VALUES (?, …) for every row, in one transaction.
    void insertRows(const std::string& table, const std::vector<std::vector<DbValue>>& rows);

private:
    sqlite3* db_ = nullptr;
};

}  // namespace ascendsim
