// Inputs that used to crash, hang or give a wrong answer with exit 0 (issue 12, corpus at
// 093aac5): each is now a WorkloadError or ExpressionError naming the field.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <string>

#include "sim/workload/expression.h"
#include "sim/workload/workload.h"
#include "sim/workload/workload_limits.h"
#include "workload_test_support.h"

namespace ascendsim {
namespace {

using testing::writeTempYaml;

std::string expressionError(const std::string& text) {
    try {
        evaluateInteger(text, {});
    } catch (const ExpressionError& e) {
        return e.what();
    }
    ADD_FAILURE() << "no error for " << text.substr(0, 80);
    return "";
}

std::string loadError(const std::string& yaml, const std::vector<std::string>& sets = {}) {
    try {
        Workload w = loadWorkload(writeTempYaml("limits.yaml", yaml), WorkloadOverrides{sets});
        validateWorkload(w, 64ULL << 30);
    } catch (const WorkloadError& e) {
        return e.what();
    }
    ADD_FAILURE() << "no WorkloadError for:\n" << yaml;
    return "";
}

const std::string kOneOp =
    "name: t\n"
    "parameters: {n: 16}\n"
    "tensors:\n"
    "  - {name: a, shape: [$n], dtype: fp16, kind: input}\n"
    "ops:\n"
    "  - {name: r, type: Relu, inputs: [a], outputs: [b]}\n";

TEST(ExpressionLimits, MinDividedOrModuloByMinusOneIsAnErrorNotSigfpe) {
    EXPECT_NE(expressionError("(-9223372036854775799-9)/-1").find("does not fit"), std::string::npos);
    EXPECT_NE(expressionError("(-9223372036854775799-9)%-1").find("does not fit"), std::string::npos);
    EXPECT_EQ(evaluateInteger("7/-1", {}), -7);
    EXPECT_EQ(evaluateInteger("7%-1", {}), 0);
}

TEST(ExpressionLimits, OverflowIsAnErrorNotAWrappedValue) {
    EXPECT_NE(expressionError("4294967296*4294967296+256").find("4294967296 * 4294967296"),
              std::string::npos);
    expressionError("9223372036854775807+1");
    expressionError("-9223372036854775807-2");
    expressionError("99999999999999999999");
    EXPECT_EQ(evaluateInteger("9223372036854775807", {}), INT64_MAX);
    EXPECT_EQ(evaluateInteger("-9223372036854775807-1", {}), INT64_MIN);
}

TEST(ExpressionLimits, DeepNestingIsAnErrorNotAStackOverflow) {
    const std::string deep = std::string(50'000, '(') + "1" + std::string(50'000, ')');
    const std::string message = expressionError(deep);
    EXPECT_NE(message.find("nested deeper than"), std::string::npos);
    EXPECT_LT(message.size(), 300u) << "the message quotes a bounded excerpt";
    expressionError(std::string(50'000, '-') + "1");
    const std::string fine = std::string(100, '(') + "2" + std::string(100, ')');
    EXPECT_EQ(evaluateInteger(fine, {}), 2);
}

TEST(ExpressionLimits, NestingThroughASelfReferringParameterIsBounded) {
    // Found by fuzz_expression: each reference restarted the nesting count, so 64 references of
    // 60 parentheses each overflowed the stack.
    const ParameterValues params{{"p", std::string(60, '(') + "p"}};
    try {
        evaluateInteger(std::string(60, '(') + "p", params);
        ADD_FAILURE() << "no error";
    } catch (const ExpressionError& e) {
        EXPECT_NE(std::string(e.what()).find("nested deeper than"), std::string::npos) << e.what();
    }
}

TEST(WorkloadLimits, OverflowInASetOverrideNamesTheCommandLine) {
    const std::string message = loadError(kOneOp, {"n=(-9223372036854775799-9)/-1"});
    EXPECT_NE(message.find("<command line>"), std::string::npos) << message;
}

TEST(WorkloadLimits, HugeRepeatIsRejectedUpFrontWithTheCount) {
    const std::string yaml =
        "name: t\n"
        "tensors:\n"
        "  - {name: a, shape: [4], dtype: fp16, kind: input}\n"
        "blocks:\n"
        "  b: {inputs: [x], outputs: [y], ops: [{name: r, type: Relu, inputs: [x], outputs: [y]}]}\n"
        "ops:\n"
        "  - {block: b, repeat: 1000000000, inputs: [a]}\n";
    const auto start = std::chrono::steady_clock::now();
    const std::string message = loadError(yaml);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
    EXPECT_NE(message.find("limits.yaml:7:"), std::string::npos) << message;
    EXPECT_NE(message.find("repeat 1000000000 would expand"), std::string::npos) << message;
}

TEST(WorkloadLimits, NestedRepeatsStopAtTheOpLimit) {
    const std::string yaml =
        "name: t\n"
        "tensors:\n"
        "  - {name: a, shape: [4], dtype: fp16, kind: input}\n"
        "blocks:\n"
        "  inner: {inputs: [x], outputs: [y], ops: [{name: r, type: Relu, inputs: [x], outputs: [y]}]}\n"
        "  outer: {inputs: [x], outputs: [y], ops: [{block: inner, repeat: 1000, inputs: [x]}]}\n"
        "ops:\n"
        "  - {block: outer, repeat: 101, inputs: [a]}\n";
    EXPECT_NE(loadError(yaml).find("more than 100000 ops"), std::string::npos);
}

TEST(WorkloadLimits, A2To64ByteTensorIsRejectedNotWrappedToZero) {
    const std::string yaml =
        "name: t\n"
        "tensors:\n"
        "  - {name: a, shape: [4294967296, 4294967296], dtype: int8, kind: input}\n"
        "ops:\n"
        "  - {name: r, type: Relu, inputs: [a], outputs: [b]}\n";
    const std::string message = loadError(yaml);
    EXPECT_NE(message.find("limits.yaml:3:"), std::string::npos) << message;
    EXPECT_NE(message.find("tensor 'a' would need more than 2^63 bytes"), std::string::npos)
        << message;
}

TEST(WorkloadLimits, ATensorBeyondTheSizeLimitNamesItsSize) {
    const std::string yaml =
        "name: t\n"
        "tensors:\n"
        "  - {name: a, shape: [1048576, 1048576, 1024], dtype: fp32, kind: input}\n"
        "ops:\n"
        "  - {name: r, type: Relu, inputs: [a], outputs: [b]}\n";
    EXPECT_NE(loadError(yaml).find("would need 4096.00 TiB"), std::string::npos);
}

TEST(WorkloadLimits, ViewCyclesAreRejectedWhenLoading) {
    const std::string cycle =
        "name: t\n"
        "tensors:\n"
        "  - {name: a, shape: [4], dtype: fp16, kind: input, view_of: b}\n"
        "  - {name: b, shape: [4], dtype: fp16, kind: input, view_of: a}\n"
        "ops:\n"
        "  - {name: r, type: Relu, inputs: [a], outputs: [c]}\n";
    EXPECT_NE(loadError(cycle).find("views form a cycle: 'a' -> 'b' -> 'a'"), std::string::npos);
    const std::string self =
        "name: t\n"
        "tensors:\n"
        "  - {name: a, shape: [4], dtype: fp16, kind: input, view_of: a}\n"
        "ops:\n"
        "  - {name: r, type: Relu, inputs: [a], outputs: [c]}\n";
    const std::string message = loadError(self);
    EXPECT_NE(message.find("limits.yaml:3:"), std::string::npos) << message;
    EXPECT_NE(message.find("views form a cycle: 'a' -> 'a'"), std::string::npos) << message;
}

TEST(WorkloadLimits, ASecondYamlDocumentIsAnError) {
    const std::string message = loadError(kOneOp + "---\nname: second\n");
    EXPECT_NE(message.find("more than one YAML document"), std::string::npos) << message;
    // The second document starts on the line after kOneOp, where '---' is.
    const std::size_t lines = static_cast<std::size_t>(std::count(kOneOp.begin(), kOneOp.end(), '\n'));
    EXPECT_NE(message.find("limits.yaml:" + std::to_string(lines + 1) + ":"), std::string::npos)
        << message;
}

// Fuzz finding (fuzz_workload_loader run 4): yaml-cpp 0.7 starts an empty document at the same
// place forever on these broken flow mappings, so YAML::LoadAll never returned. The loader counts
// documents only up to the second one, and the file gets an error instead of a hang.
TEST(WorkloadLimits, BrokenFlowMappingsThatStallYamlCppGetAnErrorNotAHang) {
    const std::string stalls =
        "# TopK on the AI me: topk\n"
        "    type: Top\n"
        "  - name: topk\n"
        "    type: TopK\n"
        "    inputs: [scores]\n"
        "  , k6nd: input}\n"
        "ops:\n"
        "  - name: topk\n"
        "    type: TopK\n"
        "    inputs: [scores]\n"
        "    outputs: [values, indices]\n"
        "    attrsN4YAML9Exceptio";
    const auto start = std::chrono::steady_clock::now();
    const std::string message = loadError(stalls);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
    EXPECT_NE(message.find("more than one YAML document"), std::string::npos) << message;
}

TEST(WorkloadLimits, AWorkloadFileTooBigToReadIsRejectedWithTheMemoryItWouldNeed) {
    std::string yaml = kOneOp;
    while (yaml.size() <= kMaxWorkloadFileBytes) yaml += "# padding padding padding padding padding\n";
    const auto start = std::chrono::steady_clock::now();
    const std::string message = loadError(yaml);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
    EXPECT_NE(message.find("at most 4.0 MiB is read"), std::string::npos) << message;
    EXPECT_NE(message.find("would need about 288.0 MiB"), std::string::npos) << message;
}

TEST(WorkloadLimits, AScalarWhereAMappingBelongsIsBadInputNotAYamlCppException) {
    // Found by fuzz_workload_loader: `node["when"]` on a scalar list item threw BadSubscript.
    const std::string message = loadError(
        "name: t\ntensors:\n  - just_a_name\nops:\n  - {name: r, type: Relu, inputs: [a], outputs: [b]}\n");
    EXPECT_NE(message.find("limits.yaml:3:"), std::string::npos) << message;
    EXPECT_NE(message.find("tensors[0]: must be a mapping"), std::string::npos) << message;
}

TEST(WorkloadLimits, AControlByteIsRejectedAtItsPlaceNotAnEndlessParse) {
    // Found by fuzz_workload_loader: yaml-cpp 0.7 loops, growing, on NUL bytes in a document.
    std::string yaml = kOneOp;
    yaml.insert(yaml.find("parameters") + 3, std::string(40, '\0'));
    const std::string message = loadError(yaml);
    EXPECT_NE(message.find("limits.yaml:2:4: yaml: control character 0x00"), std::string::npos)
        << message;
    yaml = kOneOp;
    yaml.insert(yaml.find("parameters"), std::string(20, '\xff'));
    EXPECT_NE(loadError(yaml).find("limits.yaml:2:1: yaml: byte 0xff is not UTF-8"), std::string::npos);
    EXPECT_EQ(loadError(kOneOp + "# caf\xc3\xa9\n\x01").find("0xc3"), std::string::npos)
        << "valid UTF-8 passes; the 0x01 after it is the error";
}

TEST(WorkloadLimits, CheckedByteSize) {
    EXPECT_EQ(checkedByteSize({2, 3}, DataType::Fp32), 24u);
    EXPECT_EQ(checkedByteSize({1LL << 62, 2}, DataType::Int8), std::nullopt);
    EXPECT_EQ(checkedByteSize({1LL << 61, 4}, DataType::Int8), std::nullopt);  // 2^63
    EXPECT_EQ(checkedByteSize({1LL << 30, 1LL << 30}, DataType::Fp16), 1ULL << 61);
}

}  // namespace
}  // namespace ascendsim
