#pragma once
// Renders a CoreTrace (one kernel launch's instruction timeline) for people: a Chrome trace-event
// JSON file that Perfetto (ui.perfetto.dev) and chrome://tracing open, with one process per core
// and one thread per pipe, and a short text summary of how busy each pipe was
// (docs/core-trace.md).
#include <ostream>
#include <string>

#include "sim/engine/device/core_trace.h"

namespace ascendsim {

// The trace-event JSON document (an object with "traceEvents", times in µs from the kernel's
// start). Deterministic: events sorted by core, pipe, start and program position.
std::string renderCoreTraceJson(const CoreTrace& trace);

// Throws std::runtime_error when the file cannot be written.
void writeCoreTraceFile(const std::string& path, const CoreTrace& trace);

// Per core kind and pipe: instructions, busy and waiting share of the kernel's duration.
void writeCoreTraceSummary(const CoreTrace& trace, std::ostream& out);

}  // namespace ascendsim
