#include "sim/replay/input/trace_view_json.h"

#include <charconv>
#include <string>

namespace ascendsim::trace_json {

std::vector<std::string_view> arrayObjects(std::string_view json) {
    std::vector<std::string_view> objects;
    int depth = 0;
    bool inString = false;
    std::size_t start = 0;
    for (std::size_t i = 0; i < json.size(); ++i) {
        const char c = json[i];
        if (inString) {
            if (c == '\\') ++i;
            else if (c == '"') inString = false;
            continue;
        }
        if (c == '"') inString = true;
        else if (c == '{' || c == '[') {
            if (++depth == 2 && c == '{') start = i;
        } else if (c == '}' || c == ']') {
            if (depth-- == 2 && c == '}') objects.push_back(json.substr(start, i + 1 - start));
        }
    }
    return objects;
}

std::optional<std::string_view> valueOf(std::string_view object, std::string_view key, std::size_t from) {
    const std::string quoted = '"' + std::string(key) + '"';
    for (std::size_t at = object.find(quoted, from); at != std::string_view::npos; at = object.find(quoted, at + 1)) {
        if (at > 0 && object[at - 1] == '\\') continue;
        std::size_t i = at + quoted.size();
        while (i < object.size() && (object[i] == ' ' || object[i] == '\t' || object[i] == '\n' || object[i] == '\r')) ++i;
        if (i >= object.size() || object[i] != ':') continue;
        ++i;
        while (i < object.size() && (object[i] == ' ' || object[i] == '\t' || object[i] == '\n' || object[i] == '\r')) ++i;
        if (i < object.size() && object[i] == '"') {
            const std::size_t end = object.find('"', i + 1);
            if (end == std::string_view::npos) return std::nullopt;
            return object.substr(i + 1, end - i - 1);
        }
        std::size_t end = i;
        while (end < object.size() && object[end] != ',' && object[end] != '}' && object[end] != ' ') ++end;
        return object.substr(i, end - i);
    }
    return std::nullopt;
}

std::optional<std::string_view> argOf(std::string_view event, std::string_view key) {
    const std::optional<std::string_view> args = valueOf(event, "args");
    if (!args) return std::nullopt;
    return valueOf(event, key, static_cast<std::size_t>(args->data() - event.data()));
}

std::optional<std::int64_t> integerOf(std::string_view text) {
    std::int64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return value;
}

}  // namespace ascendsim::trace_json
