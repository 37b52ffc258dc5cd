#pragma once
// What CI checks of an HTML report without a browser: one document, the charting library inline,
// no external resource (no CDN), every chart's spec valid JSON with as many data points as the
// canvas promises.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <map>
#include <string>

namespace ascendsim::html_test {

// canvas id → data-expected of every chart in `html`; each spec parsed and its data counted.
inline std::map<std::string, std::size_t> checkHtmlStructure(const std::string& html) {
    std::map<std::string, std::size_t> charts;
    EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
    EXPECT_NE(html.find("Chart.js v"), std::string::npos) << "the charting library is not inline";
    EXPECT_EQ(html.find("src=\"http"), std::string::npos) << "external script or image";
    EXPECT_EQ(html.find("href=\"http"), std::string::npos) << "external stylesheet or link";
    EXPECT_EQ(html.find("cdn"), std::string::npos);
    const std::string canvas = "<canvas class=\"chart\" id=\"";
    for (std::size_t at = html.find(canvas); at != std::string::npos; at = html.find(canvas, at + 1)) {
        const std::size_t idStart = at + canvas.size();
        const std::string id = html.substr(idStart, html.find('"', idStart) - idStart);
        const std::string expectedTag = "data-expected=\"";
        const std::size_t e = html.find(expectedTag, idStart) + expectedTag.size();
        const std::size_t expected = std::stoul(html.substr(e, html.find('"', e) - e));
        const std::string specTag = "<script type=\"application/json\" id=\"" + id + "-spec\">";
        const std::size_t specStart = html.find(specTag, at);
        EXPECT_NE(specStart, std::string::npos) << id;
        if (specStart == std::string::npos) continue;
        const std::size_t bodyStart = specStart + specTag.size();
        const std::string body = html.substr(bodyStart, html.find("</script>", bodyStart) - bodyStart);
        const auto spec = nlohmann::json::parse(body);  // throws (fails the test) when not JSON
        std::size_t counted = 0;
        for (const auto& dataset : spec["data"]["datasets"])
            if (!dataset.contains("roof")) counted += dataset["data"].size();
        EXPECT_EQ(counted, expected) << id;
        charts[id] = expected;
    }
    return charts;
}

}  // namespace ascendsim::html_test
