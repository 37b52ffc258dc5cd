#pragma once
// A Chrome-trace event (the msprof timeline's and trace_view.json's) as plain data: its members
// in writing order, rendered straight to text. A full-size rank of the 128-rank Llama step has
// ~100 000 timeline events; as nlohmann objects each one cost a dozen allocations (a vector of
// key/value pairs, heap keys, heap strings) built, rendered twice and freed, and malloc/free were
// a third of the writing's CPU (docs/performance.md, session 13). Here an event is two vectors of
// members whose keys are string literals and whose values are numbers or short strings.
//
// Two renderings, byte for byte as the writers they stand for:
// - Python: json.dumps' compact text (", " and ": ", Python float repr), as torch_npu writes
//   trace_view.json (json_text.h);
// - Compact: msprof's C++ JsonWriter (no spaces, shortest round-trip doubles), as nlohmann's
//   dump() printed the same events before.
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "profiler/writers/json/json_text.h"

namespace ascendsim {

// One member's value. Timestamps are kept as absolute ns and printed as the 3-decimal µs string
// every trace "ts" is ("1736405443881410.320"); Args stands where the event's "args" object goes.
class TraceValue {
  public:
    enum class Kind : std::uint8_t { Text, Unsigned, Signed, Real, Timestamp, Args };

    TraceValue(std::string text) : kind_(Kind::Text), text_(std::move(text)) {}
    TraceValue(const char* text) : kind_(Kind::Text), text_(text) {}
    TraceValue(double value) : kind_(Kind::Real) { number_.real = value; }
    template <typename Integer, std::enable_if_t<std::is_integral_v<Integer>, int> = 0>
    TraceValue(Integer value) {
        if constexpr (std::is_unsigned_v<Integer>) {
            kind_ = Kind::Unsigned;
            number_.unsignedValue = value;
        } else {
            kind_ = Kind::Signed;
            number_.signedValue = value;
        }
    }
    static TraceValue timestamp(std::uint64_t absoluteNs);
    static TraceValue argsPlace();

    Kind kind() const { return kind_; }
    bool isText() const { return kind_ == Kind::Text; }
    const std::string& text() const { return text_; }  // Text only
    std::uint64_t asUnsigned() const;                   // Unsigned, Signed or Timestamp (its ns)
    double asReal() const;                              // any number
    std::string timestampText() const;                  // Timestamp only

  private:
    TraceValue() = default;
    Kind kind_ = Kind::Unsigned;
    union {
        std::uint64_t unsignedValue;
        std::int64_t signedValue;
        double real;
    } number_{};
    std::string text_;
};

struct TraceField {
    std::string_view key;  // a string literal (static storage)
    TraceValue value;
};

// An object's members in insertion order (as Python dicts and ordered_json keep them).
class TraceMembers {
  public:
    TraceMembers() = default;
    explicit TraceMembers(std::size_t room) { fields_.reserve(room); }
    TraceMembers& add(std::string_view key, TraceValue value) {
        fields_.push_back({key, std::move(value)});
        return *this;
    }
    const TraceValue* find(std::string_view key) const;
    const std::vector<TraceField>& fields() const { return fields_; }
    bool empty() const { return fields_.empty(); }

  private:
    std::vector<TraceField> fields_;
};

struct TraceEvent {
    TraceMembers members;  // "args", when present, is a member of kind Args
    TraceMembers args;

    // The "name" member's text ("" without one).
    std::string_view name() const;
    std::uint64_t pid() const;  // 0 without one
    // An args member's text, or nullptr.
    const std::string* argText(std::string_view key) const;
};

enum class TraceJsonStyle {
    Python,   // json.dumps(obj): ", " and ": ", Python float repr (torch_npu's trace_view.json)
    Compact,  // msprof's C++ JsonWriter: "," and ":", shortest round-trip doubles (msprof_*.json)
};

void appendTraceEvent(std::string& out, const TraceEvent& event, TraceJsonStyle style);

// The event as a JSON object (the era-2023 export reshapes events as JSON; tests read them so).
OrderedJson traceEventJson(const TraceEvent& event);
std::vector<OrderedJson> traceEventsJson(const std::vector<TraceEvent>& events);

}  // namespace ascendsim
