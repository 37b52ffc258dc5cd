#include "sim/replay/input/sqlite_reader.h"

#include <sqlite3.h>

#include "sim/replay/input/real_profile.h"

namespace ascendsim {

bool SqliteRow::isNull(int column) const { return sqlite3_column_type(statement_, column) == SQLITE_NULL; }

std::string SqliteRow::text(int column) const {
    const unsigned char* value = sqlite3_column_text(statement_, column);
    return value == nullptr ? std::string() : std::string(reinterpret_cast<const char*>(value));
}

double SqliteRow::number(int column) const { return sqlite3_column_double(statement_, column); }

std::int64_t SqliteRow::integer(int column) const { return sqlite3_column_int64(statement_, column); }

SqliteReader::SqliteReader(const std::filesystem::path& path) : path_(path) {
    const std::string uri = "file:" + path.string() + "?immutable=1";
    const int rc = sqlite3_open_v2(uri.c_str(), &db_, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr);
    if (rc != SQLITE_OK) {
        const std::string message = db_ != nullptr ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
        sqlite3_close(db_);
        db_ = nullptr;
        throw ReplayInputError(path.string() + ": cannot open as an SQLite database: " + message);
    }
    // A file that is not a database opens fine and fails on the first read: check it now.
    query("SELECT count(*) FROM sqlite_master", [](const SqliteRow&) {});
}

SqliteReader::~SqliteReader() { sqlite3_close(db_); }

bool SqliteReader::hasTable(const std::string& table) const {
    bool found = false;
    query("SELECT 1 FROM sqlite_master WHERE type='table' AND name='" + table + "'",
          [&](const SqliteRow&) { found = true; });
    return found;
}

void SqliteReader::query(const std::string& sql, const std::function<void(const SqliteRow&)>& onRow) const {
    sqlite3_stmt* statement = nullptr;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &statement, nullptr) != SQLITE_OK) {
        const std::string message = sqlite3_errmsg(db_);
        sqlite3_finalize(statement);
        throw ReplayInputError(path_.string() + ": " + message);
    }
    const SqliteRow row(statement);
    int rc = SQLITE_ROW;
    while ((rc = sqlite3_step(statement)) == SQLITE_ROW) onRow(row);
    sqlite3_finalize(statement);
    if (rc != SQLITE_DONE) throw ReplayInputError(path_.string() + ": " + sqlite3_errmsg(db_));
}

}  // namespace ascendsim
