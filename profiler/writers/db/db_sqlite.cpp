#include "profiler/writers/db/db_sqlite.h"

#include <sqlite3.h>

#include <stdexcept>

namespace ascendsim {

DbFile::DbFile(const std::filesystem::path& path) {
    std::filesystem::remove(path);
    if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
    if (sqlite3_open(path.string().c_str(), &db_) != SQLITE_OK) {
        const std::string message = db_ ? sqlite3_errmsg(db_) : "out of memory";
        sqlite3_close(db_);
        db_ = nullptr;
        throw std::runtime_error("cannot create " + path.string() + ": " + message);
    }
}

DbFile::~DbFile() { sqlite3_close(db_); }

void DbFile::execute(const std::string& sql) {
    char* error = nullptr;
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
        const std::string message = error ? error : "unknown error";
        sqlite3_free(error);
        throw std::runtime_error("SQLite: " + message + " in: " + sql);
    }
}

void DbFile::insertRows(const std::string& table, const std::vector<std::vector<DbValue>>& rows) {
    if (rows.empty()) return;
    std::string sql = "INSERT INTO " + table + " VALUES (";
    for (std::size_t i = 0; i < rows.front().size(); ++i) sql += i == 0 ? "?" : ",?";
    sql += ")";
    sqlite3_stmt* statement = nullptr;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &statement, nullptr) != SQLITE_OK) {
        throw std::runtime_error("SQLite: " + std::string(sqlite3_errmsg(db_)) + " in: " + sql);
    }
    execute("BEGIN");
    for (const auto& row : rows) {
        for (std::size_t i = 0; i < row.size(); ++i) {
            const int index = static_cast<int>(i) + 1;
            const DbValue& value = row[i];
            if (std::holds_alternative<std::int64_t>(value)) {
                sqlite3_bind_int64(statement, index, std::get<std::int64_t>(value));
            } else if (std::holds_alternative<double>(value)) {
                sqlite3_bind_double(statement, index, std::get<double>(value));
            } else if (std::holds_alternative<std::string>(value)) {
                const std::string& text = std::get<std::string>(value);
                sqlite3_bind_text(statement, index, text.c_str(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
            } else {
                sqlite3_bind_null(statement, index);
            }
        }
        if (sqlite3_step(statement) != SQLITE_DONE) {
            const std::string message = sqlite3_errmsg(db_);
            sqlite3_finalize(statement);
            throw std::runtime_error("SQLite insert into " + table + ": " + message);
        }
        sqlite3_reset(statement);
    }
    sqlite3_finalize(statement);
    execute("COMMIT");
}

}  // namespace ascendsim
