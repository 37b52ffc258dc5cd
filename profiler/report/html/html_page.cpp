#include "profiler/report/html/html_page.h"

#include <nlohmann/json.hpp>

#include <stdexcept>

#include "profiler/report/html/chart_library.h"

namespace ascendsim {

namespace {

using Json = nlohmann::ordered_json;

constexpr const char* kStyle = R"CSS(
body{font-family:sans-serif;margin:1.5em;color:#222;max-width:1200px}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.6em;border-bottom:1px solid #ccc}
table{border-collapse:collapse;font-size:.85em;margin:.5em 0}
th,td{border:1px solid #ddd;padding:3px 8px;text-align:right}
th{background:#f0f0f0;cursor:pointer;user-select:none}th.asc:after{content:" \25B2"}th.desc:after{content:" \25BC"}
td:first-child,th:first-child{text-align:left}tr:target{background:#ffeb99}
.chart-box{position:relative;height:380px;margin:.5em 0 1.5em}
.table-box{max-height:520px;overflow:auto;display:inline-block;max-width:100%}
thead th{position:sticky;top:0}
)CSS";

// Sorting and drawing. Runs once the page (library and specs inline) is parsed.
constexpr const char* kScript = R"JS(
(function () {
  function cellValue(row, col) {
    var text = row.cells[col] ? row.cells[col].textContent.trim() : '';
    var number = parseFloat(text.replace(/[%,]/g, ''));
    return isNaN(number) ? text.toLowerCase() : number;
  }
  document.querySelectorAll('table.sortable').forEach(function (table) {
    table.querySelectorAll('th').forEach(function (th, col) {
      th.addEventListener('click', function () {
        var ascending = !th.classList.contains('asc');
        table.querySelectorAll('th').forEach(function (h) { h.classList.remove('asc', 'desc'); });
        th.classList.add(ascending ? 'asc' : 'desc');
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (a, b) {
          var x = cellValue(a, col), y = cellValue(b, col);
          if (typeof x !== typeof y) { x = String(x); y = String(y); }
          return (x < y ? -1 : x > y ? 1 : 0) * (ascending ? 1 : -1);
        });
        rows.forEach(function (r) { body.appendChild(r); });
      });
    });
  });
  var drawn = 0;
  document.querySelectorAll('canvas.chart').forEach(function (canvas) {
    var spec = JSON.parse(document.getElementById(canvas.id + '-spec').textContent);
    var links = spec.links || null;
    delete spec.links;
    spec.options = spec.options || {};
    spec.options.animation = false;
    spec.options.maintainAspectRatio = false;
    if (links) {
      spec.options.onClick = function (event, elements) {
        if (!elements.length) return;
        var target = links[elements[0].datasetIndex] && links[elements[0].datasetIndex][elements[0].index];
        if (target) location.hash = target;
      };
    }
    if (spec.type === 'scatter') {
      spec.options.plugins = spec.options.plugins || {};
      spec.options.plugins.tooltip = { callbacks: { label: function (ctx) {
        return (ctx.raw.label ? ctx.raw.label + ': ' : '') + ctx.raw.x.toPrecision(3) + ', ' + ctx.raw.y.toPrecision(3);
      } } };
    }
    var chart = new Chart(canvas.getContext('2d'), spec);
    var count = 0;
    chart.data.datasets.forEach(function (d, i) { if (!d.roof) count += chart.getDatasetMeta(i).data.length; });
    canvas.setAttribute('data-rendered', String(count));
    drawn += 1;
  });
  document.body.setAttribute('data-charts-rendered', String(drawn));
})();
)JS";

// JSON inside <script>: "</" would end the element early.
std::string scriptSafe(std::string json) {
    for (std::size_t at = json.find("</"); at != std::string::npos; at = json.find("</", at + 2)) json.replace(at, 2, "<\\/");
    return json;
}

Json axisTitle(const std::string& text) { return Json{{"display", !text.empty()}, {"text", text}}; }

const char* kPalette[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
                          "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};

const char* colour(std::size_t i) { return kPalette[i % (sizeof kPalette / sizeof kPalette[0])]; }

}  // namespace

std::string htmlEscape(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            default: out += c;
        }
    }
    return out;
}

HtmlPage::HtmlPage(std::string title) : title_(std::move(title)) {}

void HtmlPage::heading(const std::string& text) { body_ += "<h2>" + htmlEscape(text) + "</h2>\n"; }

void HtmlPage::paragraph(const std::string& text) { body_ += "<p>" + htmlEscape(text) + "</p>\n"; }

void HtmlPage::table(const std::string& id, const std::vector<std::string>& header,
                     const std::vector<std::vector<std::string>>& rows, const std::vector<std::string>& rowIds) {
    body_ += "<div class=\"table-box\"><table class=\"sortable\" id=\"" + htmlEscape(id) + "\"><thead><tr>";
    for (const auto& h : header) body_ += "<th>" + htmlEscape(h) + "</th>";
    body_ += "</tr></thead><tbody>\n";
    for (std::size_t r = 0; r < rows.size(); ++r) {
        const bool anchored = r < rowIds.size() && !rowIds[r].empty();
        body_ += anchored ? "<tr id=\"" + htmlEscape(rowIds[r]) + "\">" : "<tr>";
        for (const auto& cell : rows[r]) body_ += "<td>" + htmlEscape(cell) + "</td>";
        body_ += "</tr>\n";
    }
    body_ += "</tbody></table></div>\n";
}

void HtmlPage::chart(const std::string& id, const std::string& specJson, std::size_t dataCount) {
    body_ += "<div class=\"chart-box\"><canvas class=\"chart\" id=\"" + htmlEscape(id) + "\" data-expected=\"" +
             std::to_string(dataCount) + "\"></canvas></div>\n<script type=\"application/json\" id=\"" +
             htmlEscape(id) + "-spec\">" + scriptSafe(specJson) + "</script>\n";
}

void HtmlPage::lineChart(const std::string& id, const std::string& title, const std::string& xTitle,
                         const std::vector<std::string>& labels, const std::vector<ChartSeries>& series,
                         const std::string& yTitle) {
    Json datasets = Json::array();
    std::size_t count = 0;
    for (std::size_t i = 0; i < series.size(); ++i) {
        datasets.push_back({{"label", series[i].name}, {"data", series[i].values}, {"borderColor", colour(i)},
                            {"backgroundColor", colour(i)}, {"tension", 0}});
        count += series[i].values.size();
    }
    const Json spec = {{"type", "line"},
                       {"data", {{"labels", labels}, {"datasets", datasets}}},
                       {"options",
                        {{"plugins", {{"title", {{"display", true}, {"text", title}}}}},
                         {"scales", {{"x", {{"title", axisTitle(xTitle)}}}, {"y", {{"title", axisTitle(yTitle)}}}}}}}};
    chart(id, spec.dump(), count);
}

void HtmlPage::barChart(const std::string& id, const std::string& title, const std::vector<std::string>& labels,
                        const std::vector<ChartSeries>& series, const std::string& valueTitle, bool horizontal,
                        bool stacked) {
    Json datasets = Json::array();
    std::size_t count = 0;
    for (std::size_t i = 0; i < series.size(); ++i) {
        datasets.push_back({{"label", series[i].name}, {"data", series[i].values}, {"backgroundColor", colour(i)}});
        count += series[i].values.size();
    }
    const std::string valueAxis = horizontal ? "x" : "y";
    const std::string categoryAxis = horizontal ? "y" : "x";
    const Json spec = {{"type", "bar"},
                       {"data", {{"labels", labels}, {"datasets", datasets}}},
                       {"options",
                        {{"indexAxis", horizontal ? "y" : "x"},
                         {"plugins", {{"title", {{"display", true}, {"text", title}}}}},
                         {"scales",
                          {{valueAxis, {{"title", axisTitle(valueTitle)}, {"stacked", stacked}}},
                           {categoryAxis, {{"stacked", stacked}}}}}}}};
    chart(id, spec.dump(), count);
}

void HtmlPage::scatterChart(const std::string& id, const std::string& title, const std::string& xTitle,
                            const std::string& yTitle, const std::vector<ScatterSeries>& series) {
    Json datasets = Json::array();
    Json links = Json::array();
    std::size_t count = 0;
    for (std::size_t i = 0; i < series.size(); ++i) {
        Json data = Json::array();
        Json datasetLinks = Json::array();
        for (const auto& p : series[i].points) {
            data.push_back({{"x", p.x}, {"y", p.y}, {"label", p.label}});
            datasetLinks.push_back(p.link);
        }
        Json dataset = {{"label", series[i].name}, {"data", data}, {"borderColor", colour(i)},
                        {"backgroundColor", colour(i)}};
        if (series[i].line) {
            dataset["showLine"] = true;
            dataset["pointRadius"] = 0;
            dataset["roof"] = true;
            dataset["borderDash"] = {6, 3};
        } else {
            count += series[i].points.size();
        }
        datasets.push_back(dataset);
        links.push_back(datasetLinks);
    }
    const Json logAxis = {{"type", "logarithmic"}};
    Json x = logAxis, y = logAxis;
    x["title"] = axisTitle(xTitle);
    y["title"] = axisTitle(yTitle);
    const Json spec = {{"type", "scatter"},
                       {"data", {{"datasets", datasets}}},
                       {"links", links},
                       {"options", {{"plugins", {{"title", {{"display", true}, {"text", title}}}}},
                                    {"scales", {{"x", x}, {"y", y}}}}}};
    chart(id, spec.dump(), count);
}

void HtmlPage::write(std::ostream& out) const {
    if (!chartLibraryAvailable())
        throw std::runtime_error("this build has no charting library for HTML reports: install libjs-chart.js "
                                 "(scripts/install_deps.sh) and re-run cmake");
    out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" << htmlEscape(title_)
        << "</title>\n<style>" << kStyle << "</style>\n<script>\n" << chartLibrarySource()
        << "\n</script>\n</head>\n<body>\n<h1>" << htmlEscape(title_) << "</h1>\n"
        << body_ << "<script>" << kScript << "</script>\n</body>\n</html>\n";
}

}  // namespace ascendsim
