#include "sim/yaml/yaml_text.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/parser.h>

namespace ascendsim {
namespace {

// Length of the UTF-8 sequence starting at text[i], or 0 when it is not valid UTF-8.
std::size_t utf8Length(const std::string& text, std::size_t i) {
    const auto c = static_cast<unsigned char>(text[i]);
    const std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3 : (c >> 3) == 0x1e ? 4 : 0;
    if (n == 0 || i + n > text.size()) return 0;
    for (std::size_t k = 1; k < n; ++k) {
        if ((static_cast<unsigned char>(text[i + k]) >> 6) != 0x2) return 0;
    }
    return n;
}

void rejectBytesYamlDoesNotAllow(const std::string& text) {
    int line = 1, column = 1;
    for (std::size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        const std::size_t n = utf8Length(text, i);
        if (n == 0 || (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f) {
            char hex[8];
            std::snprintf(hex, sizeof hex, "0x%02x", c);
            throw YamlTextError(line, column,
                                std::string(n == 0 ? "byte " : "control character ") + hex +
                                    (n == 0 ? " is not UTF-8" : " is not allowed in YAML"));
        }
        if (c == '\n') line += 1, column = 1;
        else column += 1;
        i += n;
    }
}

// Records where each document starts and ignores everything inside it.
class DocumentStarts final : public YAML::EventHandler {
public:
    std::size_t count = 0;
    YAML::Mark second;

    void OnDocumentStart(const YAML::Mark& mark) override {
        if (++count == 2) second = mark;
    }
    void OnDocumentEnd() override {}
    void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
    void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
    void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t,
                  const std::string&) override {}
    void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                         YAML::EmitterStyle::value) override {}
    void OnSequenceEnd() override {}
    void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                    YAML::EmitterStyle::value) override {}
    void OnMapEnd() override {}
};

int oneBased(int zeroBased) { return zeroBased < 0 ? 0 : zeroBased + 1; }

}  // namespace

YAML::Node loadSingleYamlDocument(const std::string& text) {
    rejectBytesYamlDoesNotAllow(text);
    try {
        std::istringstream in(text);
        YAML::Parser parser(in);
        DocumentStarts starts;
        while (starts.count < 2 && parser.HandleNextDocument(starts)) {
        }
        if (starts.count > 1) {
            const YAML::Mark& at = starts.second;
            throw YamlTextError(at.is_null() ? 0 : oneBased(at.line),
                                at.is_null() ? 0 : oneBased(at.column),
                                "the file holds more than one YAML document ('---', or text "
                                "after the first document ends); it must be one document");
        }
        return starts.count == 0 ? YAML::Node() : YAML::Load(text);
    } catch (const YAML::ParserException& e) {
        throw YamlTextError(oneBased(e.mark.line), oneBased(e.mark.column), e.msg);
    }
}

YAML::Node loadSingleYamlFile(const std::string& path) {
    errno = 0;
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        const int reason = errno;
        throw YamlFileUnreadable(reason != 0 ? std::strerror(reason) : "unreadable");
    }
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) {
        const int reason = errno;
        throw YamlFileUnreadable(reason != 0 ? std::strerror(reason) : "read error");
    }
    return loadSingleYamlDocument(text);
}

}  // namespace ascendsim
