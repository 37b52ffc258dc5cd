#include "profiler/writers/timeline/trace_event.h"

#include <charconv>
#include <cmath>
#include <stdexcept>

#include <nlohmann/detail/conversions/to_chars.hpp>

#include "profiler/format/number_format.h"
#include "profiler/format/time_format.h"

namespace ascendsim {

namespace {

template <typename Integer>
void appendTraceInteger(std::string& out, Integer value) {
    char digits[24];
    out.append(digits, std::to_chars(digits, digits + sizeof digits, value).ptr);
}

// nlohmann's dump() of a double: "null" when not finite, else its grisu2 shortest round-trip
// text (detail::to_chars, what its serializer calls; "1.0", "0.5", "1e-05").
void appendCompactReal(std::string& out, double value) {
    if (!std::isfinite(value)) {
        out += "null";
        return;
    }
    char text[64];
    out.append(text, nlohmann::detail::to_chars(text, text + sizeof text, value));
}

// nlohmann's dump() of a string (ensure_ascii off). For ASCII it escapes exactly as json.dumps
// with ensure_ascii=False does (\" \\ \b \f \n \r \t, other controls \u00xx); other bytes go
// through nlohmann itself, which checks the UTF-8.
void appendCompactString(std::string& out, const std::string& value) {
    for (const char c : value) {
        if (static_cast<unsigned char>(c) >= 0x80) {
            out += OrderedJson(value).dump();
            return;
        }
    }
    appendJsonString(out, value, false);
}

void appendTraceValue(std::string& out, const TraceValue& value, const TraceMembers& args, TraceJsonStyle style);

void appendTraceMembers(std::string& out, const TraceMembers& members, const TraceMembers& args, TraceJsonStyle style) {
    const bool python = style == TraceJsonStyle::Python;
    out += '{';
    bool first = true;
    for (const TraceField& field : members.fields()) {
        if (!first) out += python ? ", " : ",";
        first = false;
        out += '"';
        out += field.key;  // literals: nothing to escape
        out += python ? "\": " : "\":";
        appendTraceValue(out, field.value, args, style);
    }
    out += '}';
}

void appendTraceValue(std::string& out, const TraceValue& value, const TraceMembers& args, TraceJsonStyle style) {
    switch (value.kind()) {
        case TraceValue::Kind::Text:
            if (style == TraceJsonStyle::Python) appendJsonString(out, value.text(), false);
            else appendCompactString(out, value.text());
            return;
        case TraceValue::Kind::Unsigned: appendTraceInteger(out, value.asUnsigned()); return;
        case TraceValue::Kind::Signed: appendTraceInteger(out, static_cast<std::int64_t>(value.asUnsigned())); return;
        case TraceValue::Kind::Real:
            if (style == TraceJsonStyle::Python) out += pythonFloatRepr(value.asReal());
            else appendCompactReal(out, value.asReal());
            return;
        case TraceValue::Kind::Timestamp:
            out += '"';
            appendNsToUs(out, value.asUnsigned());
            out += '"';
            return;
        case TraceValue::Kind::Args: appendTraceMembers(out, args, TraceMembers{}, style); return;
    }
}

OrderedJson traceValueJson(const TraceValue& value, const TraceMembers& args);

OrderedJson traceMembersJson(const TraceMembers& members, const TraceMembers& args) {
    OrderedJson object = jsonObjectWithRoom(members.fields().size());
    for (const TraceField& field : members.fields()) object[std::string(field.key)] = traceValueJson(field.value, args);
    return object;
}

OrderedJson traceValueJson(const TraceValue& value, const TraceMembers& args) {
    switch (value.kind()) {
        case TraceValue::Kind::Text: return value.text();
        case TraceValue::Kind::Unsigned: return value.asUnsigned();
        case TraceValue::Kind::Signed: return static_cast<std::int64_t>(value.asUnsigned());
        case TraceValue::Kind::Real: return value.asReal();
        case TraceValue::Kind::Timestamp: return value.timestampText();
        case TraceValue::Kind::Args: return traceMembersJson(args, TraceMembers{});
    }
    return nullptr;
}

}  // namespace

TraceValue TraceValue::timestamp(std::uint64_t absoluteNs) {
    TraceValue v;
    v.kind_ = Kind::Timestamp;
    v.number_.unsignedValue = absoluteNs;
    return v;
}

TraceValue TraceValue::argsPlace() {
    TraceValue v;
    v.kind_ = Kind::Args;
    return v;
}

std::uint64_t TraceValue::asUnsigned() const {
    switch (kind_) {
        case Kind::Unsigned:
        case Kind::Timestamp: return number_.unsignedValue;
        case Kind::Signed: return static_cast<std::uint64_t>(number_.signedValue);
        default: throw std::logic_error("TraceValue::asUnsigned: not an integer");
    }
}

double TraceValue::asReal() const {
    switch (kind_) {
        case Kind::Real: return number_.real;
        case Kind::Unsigned: return static_cast<double>(number_.unsignedValue);
        case Kind::Signed: return static_cast<double>(number_.signedValue);
        default: throw std::logic_error("TraceValue::asReal: not a number");
    }
}

std::string TraceValue::timestampText() const {
    if (kind_ != Kind::Timestamp) throw std::logic_error("TraceValue::timestampText: not a timestamp");
    return nsToUsString(number_.unsignedValue);
}

const TraceValue* TraceMembers::find(std::string_view key) const {
    for (const TraceField& field : fields_)
        if (field.key == key) return &field.value;
    return nullptr;
}

std::string_view TraceEvent::name() const {
    const TraceValue* value = members.find("name");
    return value && value->isText() ? std::string_view(value->text()) : std::string_view();
}

std::uint64_t TraceEvent::pid() const {
    const TraceValue* value = members.find("pid");
    return value ? value->asUnsigned() : 0;
}

const std::string* TraceEvent::argText(std::string_view key) const {
    const TraceValue* value = args.find(key);
    return value && value->isText() ? &value->text() : nullptr;
}

void appendTraceEvent(std::string& out, const TraceEvent& event, TraceJsonStyle style) {
    appendTraceMembers(out, event.members, event.args, style);
}

OrderedJson traceEventJson(const TraceEvent& event) { return traceMembersJson(event.members, event.args); }

std::vector<OrderedJson> traceEventsJson(const std::vector<TraceEvent>& events) {
    std::vector<OrderedJson> out;
    out.reserve(events.size());
    for (const TraceEvent& e : events) out.push_back(traceEventJson(e));
    return out;
}

}  // namespace ascendsim
