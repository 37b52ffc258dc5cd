#pragma once
// JSON text exactly as Python's json.dumps prints it (formats.md §1.2, §1.3, §3.5): the writers
// build nlohmann::ordered_json trees (key order = insertion order, as Python dicts keep it) and
// render them here, because nlohmann's own dump() differs from Python in separators and floats.
//
// - Compact form: json.dumps(obj) with the default separators ", " and ": ".
// - Indented form: json.dumps(obj, indent=N): one item per line, "," line ends, "[]"/"{}" empty.
// - Floats are Python repr ("1452.0", "3.6500000000000004"); integers print as integers.
// - ensureAscii=false keeps UTF-8 as is (ensure_ascii=False); true escapes non-ASCII as \uXXXX.
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace ascendsim {

using OrderedJson = nlohmann::ordered_json;

// An empty object with room for `keys` members. ordered_json keeps its members in a vector, and
// each growth of it copies every member (the keys are const strings, which do not move): writers
// that build ~100 000 events per rank directory reserve the members they are about to add.
OrderedJson jsonObjectWithRoom(std::size_t keys);

// Appends `value` as a JSON string literal (with quotes) the way Python escapes it.
void appendJsonString(std::string& out, std::string_view value, bool ensureAscii);

// Appends `value` compactly (separators ", " and ": ").
void appendPythonJson(std::string& out, const OrderedJson& value, bool ensureAscii);

std::string dumpPythonJson(const OrderedJson& value, bool ensureAscii);

// json.dumps(value, indent=indent, ensure_ascii=ensureAscii).
std::string dumpPythonJsonIndented(const OrderedJson& value, int indent, bool ensureAscii);

}  // namespace ascendsim
