#include "profiler/writers/json/json_text.h"

#include <charconv>
#include <cstdint>
#include <cstdio>
#include <stdexcept>

#include "profiler/format/number_format.h"

namespace ascendsim {

namespace {

void appendHexEscape(std::string& out, unsigned codeUnit) {
    char buffer[8];
    std::snprintf(buffer, sizeof buffer, "\\u%04x", codeUnit & 0xFFFFu);
    out += buffer;
}

// Decodes one UTF-8 code point starting at `i`; returns the code point and advances `i`.
// Invalid bytes are passed through as U+FFFD, which Python would never see (it reads str).
std::uint32_t decodeUtf8(std::string_view s, std::size_t& i) {
    const auto lead = static_cast<unsigned char>(s[i]);
    int extra = 0;
    std::uint32_t cp = 0;
    if (lead < 0x80) { ++i; return lead; }
    if ((lead & 0xE0) == 0xC0) { extra = 1; cp = lead & 0x1F; }
    else if ((lead & 0xF0) == 0xE0) { extra = 2; cp = lead & 0x0F; }
    else if ((lead & 0xF8) == 0xF0) { extra = 3; cp = lead & 0x07; }
    else { ++i; return 0xFFFD; }
    if (i + static_cast<std::size_t>(extra) >= s.size()) {
        ++i;
        return 0xFFFD;
    }
    for (int k = 1; k <= extra; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    i += static_cast<std::size_t>(extra) + 1;
    return cp;
}

void appendValue(std::string& out, const OrderedJson& value, bool ensureAscii, int indent, int depth);

// Every event has half a dozen integers (pid, tid, ids): printed in place, no temporary string.
template <typename Integer>
void appendInteger(std::string& out, Integer value) {
    char digits[24];
    out.append(digits, std::to_chars(digits, digits + sizeof digits, value).ptr);
}

void appendNewline(std::string& out, int indent, int depth) {
    out += '\n';
    out.append(static_cast<std::size_t>(indent * depth), ' ');
}

void appendValue(std::string& out, const OrderedJson& value, bool ensureAscii, int indent, int depth) {
    using T = OrderedJson::value_t;
    switch (value.type()) {
        case T::null: out += "null"; return;
        case T::boolean: out += value.get<bool>() ? "true" : "false"; return;
        case T::number_integer: appendInteger(out, value.get<std::int64_t>()); return;
        case T::number_unsigned: appendInteger(out, value.get<std::uint64_t>()); return;
        case T::number_float: out += pythonFloatRepr(value.get<double>()); return;
        case T::string: appendJsonString(out, value.get_ref<const std::string&>(), ensureAscii); return;
        case T::array: {
            if (value.empty()) { out += "[]"; return; }
            out += '[';
            bool first = true;
            for (const auto& item : value) {
                if (!first) out += indent > 0 ? "," : ", ";
                first = false;
                if (indent > 0) appendNewline(out, indent, depth + 1);
                appendValue(out, item, ensureAscii, indent, depth + 1);
            }
            if (indent > 0) appendNewline(out, indent, depth);
            out += ']';
            return;
        }
        case T::object: {
            if (value.empty()) { out += "{}"; return; }
            out += '{';
            bool first = true;
            for (const auto& [key, item] : value.items()) {
                if (!first) out += indent > 0 ? "," : ", ";
                first = false;
                if (indent > 0) appendNewline(out, indent, depth + 1);
                appendJsonString(out, key, ensureAscii);
                out += ": ";
                appendValue(out, item, ensureAscii, indent, depth + 1);
            }
            if (indent > 0) appendNewline(out, indent, depth);
            out += '}';
            return;
        }
        case T::binary:
        case T::discarded: throw std::invalid_argument("appendPythonJson: value has no JSON text form");
    }
}

}  // namespace

OrderedJson jsonObjectWithRoom(std::size_t keys) {
    OrderedJson object = OrderedJson::object();
    object.get_ref<OrderedJson::object_t&>().reserve(keys);
    return object;
}

void appendJsonString(std::string& out, std::string_view value, bool ensureAscii) {
    out += '"';
    std::size_t i = 0;
    while (i < value.size()) {
        const auto c = static_cast<unsigned char>(value[i]);
        switch (c) {
            case '"': out += "\\\""; ++i; continue;
            case '\\': out += "\\\\"; ++i; continue;
            case '\n': out += "\\n"; ++i; continue;
            case '\r': out += "\\r"; ++i; continue;
            case '\t': out += "\\t"; ++i; continue;
            case '\b': out += "\\b"; ++i; continue;
            case '\f': out += "\\f"; ++i; continue;
            default: break;
        }
        if (c < 0x20) {
            appendHexEscape(out, c);
            ++i;
            continue;
        }
        if (c < 0x80 || !ensureAscii) {
            out += static_cast<char>(c);
            ++i;
            continue;
        }
        std::uint32_t cp = decodeUtf8(value, i);
        if (cp >= 0x10000) {
            cp -= 0x10000;
            appendHexEscape(out, 0xD800 + (cp >> 10));
            appendHexEscape(out, 0xDC00 + (cp & 0x3FF));
        } else {
            appendHexEscape(out, cp);
        }
    }
    out += '"';
}

void appendPythonJson(std::string& out, const OrderedJson& value, bool ensureAscii) {
    appendValue(out, value, ensureAscii, 0, 0);
}

std::string dumpPythonJson(const OrderedJson& value, bool ensureAscii) {
    std::string out;
    appendPythonJson(out, value, ensureAscii);
    return out;
}

std::string dumpPythonJsonIndented(const OrderedJson& value, int indent, bool ensureAscii) {
    std::string out;
    appendValue(out, value, ensureAscii, indent, 0);
    return out;
}

}  // namespace ascendsim
