#pragma once
// One self-contained HTML report: headings, sortable tables and charts, with the charting library
// and every datum inline, so the file opens offline. Each chart is a <canvas class="chart"> plus
// its spec as JSON (<script type="application/json">); one small script draws them all and marks
// each canvas with data-rendered="N" (the points or bars drawn), which the browser test reads.
#include <ostream>
#include <string>
#include <vector>

namespace ascendsim {

struct ChartSeries {
    std::string name;
    std::vector<double> values;  // one per label (line/bar charts)
};

struct ScatterPoint {
    double x = 0, y = 0;
    std::string label;  // tooltip
    std::string link;   // "#kernel-3": clicking the point jumps there; may be empty
};

struct ScatterSeries {
    std::string name;
    std::vector<ScatterPoint> points;
    bool line = false;  // a roof: drawn as a line through the points, not counted as data
};

class HtmlPage {
public:
    explicit HtmlPage(std::string title);

    void heading(const std::string& text);
    void paragraph(const std::string& text);
    // Clicking a header sorts by that column (numerically when the cells are numbers). A row's
    // anchor (rowIds[i], may be empty or absent) lets charts link to it.
    void table(const std::string& id, const std::vector<std::string>& header,
               const std::vector<std::vector<std::string>>& rows, const std::vector<std::string>& rowIds = {});
    void lineChart(const std::string& id, const std::string& title, const std::string& xTitle,
                   const std::vector<std::string>& labels, const std::vector<ChartSeries>& series,
                   const std::string& yTitle);
    void barChart(const std::string& id, const std::string& title, const std::vector<std::string>& labels,
                  const std::vector<ChartSeries>& series, const std::string& valueTitle, bool horizontal = false,
                  bool stacked = false);
    // Log-log scatter (rooflines): x and y titles name the units.
    void scatterChart(const std::string& id, const std::string& title, const std::string& xTitle,
                      const std::string& yTitle, const std::vector<ScatterSeries>& series);

    // Throws std::runtime_error when the build has no charting library.
    void write(std::ostream& out) const;

private:
    void chart(const std::string& id, const std::string& specJson, std::size_t dataCount);

    std::string title_;
    std::string body_;
};

std::string htmlEscape(const std::string& text);

}  // namespace ascendsim
