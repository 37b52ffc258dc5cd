#pragma once
// Read-only access to a profiler DB export (ascend_pytorch_profiler_*.db). Opened immutable, so
// reading a WAL-mode file never creates -wal/-shm files next to the user's data.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>

struct sqlite3;
struct sqlite3_stmt;

namespace ascendsim {

class SqliteRow {
public:
    explicit SqliteRow(sqlite3_stmt* statement) : statement_(statement) {}
    bool isNull(int column) const;
    std::string text(int column) const;  // "" for NULL
    double number(int column) const;     // 0 for NULL
    std::int64_t integer(int column) const;

private:
    sqlite3_stmt* statement_;
};

class SqliteReader {
public:
    // Throws ReplayInputError naming the file when it is not an SQLite database.
    explicit SqliteReader(const std::filesystem::path& path);
    ~SqliteReader();
    SqliteReader(const SqliteReader&) = delete;
    SqliteReader& operator=(const SqliteReader&) = delete;

    bool hasTable(const std::string& table) const;
    // Runs `sql` and calls `onRow` for each result row. Throws ReplayInputError with SQLite's
    // message and the file name.
    void query(const std::string& sql, const std::function<void(const SqliteRow&)>& onRow) const;

private:
    std::filesystem::path path_;
    sqlite3* db_ = nullptr;
};

}  // namespace ascendsim
