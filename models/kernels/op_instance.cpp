#include "models/kernels/op_instance.h"

#include <array>

namespace ascendsim {

namespace {
constexpr std::array<std::string_view, 6> kFormatNames = {"ND",      "NCHW",       "NHWC",
                                                          "NC1HWC0", "FRACTAL_NZ", "FRACTAL_Z"};

template <typename T>
const T* findAttr(const std::map<std::string, AttrValue>& attrs, const std::string& key) {
    auto it = attrs.find(key);
    return it == attrs.end() ? nullptr : std::get_if<T>(&it->second);
}
}  // namespace

std::string_view tensorFormatName(TensorFormat f) { return kFormatNames[static_cast<std::size_t>(f)]; }

bool parseTensorFormat(std::string_view text, TensorFormat& out) {
    for (std::size_t i = 0; i < kFormatNames.size(); ++i) {
        if (kFormatNames[i] == text) {
            out = static_cast<TensorFormat>(i);
            return true;
        }
    }
    return false;
}

std::int64_t TensorInfo::elementCount() const {
    std::int64_t count = 1;
    for (auto d : shape) count *= d;
    return count;
}

std::uint64_t TensorInfo::bytes() const {
    return static_cast<std::uint64_t>(elementCount()) * bytesOf(dtype);
}

std::int64_t OpInstance::intAttr(const std::string& key, std::int64_t fallback) const {
    const auto* v = findAttr<std::int64_t>(attrs, key);
    return v ? *v : fallback;
}

double OpInstance::floatAttr(const std::string& key, double fallback) const {
    if (const auto* v = findAttr<double>(attrs, key)) return *v;
    if (const auto* i = findAttr<std::int64_t>(attrs, key)) return static_cast<double>(*i);
    return fallback;
}

bool OpInstance::boolAttr(const std::string& key, bool fallback) const {
    const auto* v = findAttr<bool>(attrs, key);
    return v ? *v : fallback;
}

std::string OpInstance::stringAttr(const std::string& key, const std::string& fallback) const {
    const auto* v = findAttr<std::string>(attrs, key);
    return v ? *v : fallback;
}

std::vector<std::int64_t> OpInstance::intsAttr(const std::string& key,
                                               const std::vector<std::int64_t>& fallback) const {
    const auto* v = findAttr<std::vector<std::int64_t>>(attrs, key);
    return v ? *v : fallback;
}

void throwLoweringError(const OpInstance& op, const std::string& reason) {
    throw LoweringError("op '" + op.name + "' (" + op.type + "): " + reason);
}

}  // namespace ascendsim
