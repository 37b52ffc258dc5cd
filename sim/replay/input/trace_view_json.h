#pragma once
// The few pieces of JSON a replay reads from trace_view.json (a Chrome trace: one top-level array
// of flat event objects with an "args" object). Events are read as text spans; values are taken
// by key, so a megabyte trace is scanned once and nothing is built for the events left unread.
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace ascendsim::trace_json {

// The top-level objects of a JSON array, as text spans (strings and nesting respected).
std::vector<std::string_view> arrayObjects(std::string_view json);

// The raw value after the first `"key":` at or after `from` in `object`: a string's contents
// (without quotes), or a number / literal token. nullopt when the key is absent.
std::optional<std::string_view> valueOf(std::string_view object, std::string_view key, std::size_t from = 0);

// A value inside the event's "args" object.
std::optional<std::string_view> argOf(std::string_view event, std::string_view key);

// A whole decimal integer; nullopt for anything else.
std::optional<std::int64_t> integerOf(std::string_view text);

}  // namespace ascendsim::trace_json
