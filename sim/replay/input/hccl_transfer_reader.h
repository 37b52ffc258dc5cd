#pragma once
// The HCCL transfer tasks of a real profile (RealProfile::hcclTransfers, docs/fidelity.md §108):
// - text export: trace_view.json's "HCCL" process, planes (tid) >= 1, events named Memcpy or
//   Reduce_Inline, with ts / dur (µs, text) and args "size(Byte)", "link type";
// - DB export: COMMUNICATION_TASK_INFO (taskType, size, linkType via ENUM_HCCL_LINK_TYPE) joined with
//   TASK (startNs, endNs) on globalTaskId.
// Neither communication.json nor kernel_details.csv's hcom_* rows say when inside an op its bytes
// moved (they give the op's span, and communication.json per-link bytes and link time), so a
// profile without task rows has no transfers.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string_view>
#include <vector>

#include "sim/replay/input/real_profile.h"
#include "sim/replay/input/sqlite_reader.h"

namespace ascendsim {

// "1736412474757061.620" (µs, as the exports print times; a trailing TAB allowed) → ns, exactly
// (a double holds such a time only to 0.25 µs). nullopt for anything else.
std::optional<std::int64_t> microsecondsTextToNs(std::string_view text);

// The transfer events of a trace_view.json text (a JSON array of trace events); empty when it
// has no HCCL process. Throws ReplayInputError (naming `source`) on a malformed transfer event.
std::vector<HcclTransfer> parseTraceViewTransfers(std::string_view json, const std::filesystem::path& source);

// trace_view.json beside `kernelDetails`, when present; empty otherwise.
std::vector<HcclTransfer> readTraceViewTransfers(const std::filesystem::path& kernelDetails);

// The DB export's transfer tasks; empty without COMMUNICATION_TASK_INFO.
std::vector<HcclTransfer> readDbTransfers(const SqliteReader& db);

}  // namespace ascendsim
