#include "plot.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <utility>

#include "report.hpp"

namespace aclnn_cpu {
namespace bench {
namespace {

// Geometry in SVG pixels.
constexpr int kBar = 7;        // one bar's width
constexpr int kPairGap = 3;    // between the mini-batches of a layer
constexpr int kLayerGap = 14;  // between layers
constexpr int kLeft = 48;      // room for the y axis labels
constexpr int kChart = 220;    // height of the bars' area
constexpr int kAbove = 58;     // title and ratio labels above the bars
constexpr int kBelow = 118;    // mini-batch and layer labels below
constexpr int kPanel = kAbove + kChart + kBelow;
const char *const kOurs = "#1f5fa8";
const char *const kOnednn = "#b4b4b4";

using PanelKey = std::pair<int, int>;  // precision, threads

struct Panel {
  std::vector<std::string> layers;  // in suite order
  std::vector<int64_t> mbs;         // in sweep order
  std::map<std::pair<std::string, int64_t>, const CaseResult *> cases;
};

std::map<PanelKey, Panel> panels_of(const std::vector<CaseResult> &results) {
  std::map<PanelKey, Panel> panels;
  for (const CaseResult &r : results) {
    if (!r.error.empty()) continue;
    Panel &p = panels[{static_cast<int>(r.precision), r.threads}];
    if (std::find(p.layers.begin(), p.layers.end(), r.layer.name) == p.layers.end()) p.layers.push_back(r.layer.name);
    if (std::find(p.mbs.begin(), p.mbs.end(), r.sweep_mb) == p.mbs.end()) p.mbs.push_back(r.sweep_mb);
    p.cases[{r.layer.name, r.sweep_mb}] = &r;
  }
  return panels;
}

int layer_width(const Panel &p) { return static_cast<int>(p.mbs.size()) * (2 * kBar + kPairGap) + kLayerGap; }

std::string escaped(const std::string &text) {
  std::string out;
  for (char c : text) out += c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '&' ? "&amp;" : std::string(1, c);
  return out;
}

void bar(std::ostream &svg, double x, double top, double pct, double scale, const char *color) {
  const double h = std::max(0.0, std::min(pct, scale)) / scale * kChart;
  svg << "<rect x=\"" << x << "\" y=\"" << top + kChart - h << "\" width=\"" << kBar << "\" height=\"" << h
      << "\" fill=\"" << color << "\"/>\n";
}

void text(std::ostream &svg, double x, double y, const std::string &s, const char *attrs) {
  svg << "<text x=\"" << x << "\" y=\"" << y << "\" " << attrs << ">" << escaped(s) << "</text>\n";
}

// Bars of one layer at each mini-batch: ours then oneDNN's, the ratio ours/oneDNN above (red above 1).
void draw_layer(std::ostream &svg, const Panel &p, const std::string &layer, double x, double top, double scale,
                const Peak &peak) {
  char label[32];
  for (int64_t mb : p.mbs) {
    const auto it = p.cases.find({layer, mb});
    if (it != p.cases.end()) {
      const CaseResult &r = *it->second;
      const double ours = percent_of_peak(gflops(r.layer, r.ours_ms), r.threads, peak);
      bar(svg, x, top, ours, scale, kOurs);
      double peak_pct = ours;
      if (r.onednn) {
        const double dnn = percent_of_peak(gflops(r.layer, r.onednn_ms), r.threads, peak);
        bar(svg, x + kBar, top, dnn, scale, kOnednn);
        peak_pct = std::max(ours, dnn);
        std::snprintf(label, sizeof label, "%.2f", r.ratio);
        const double y = top + kChart - std::min(peak_pct, scale) / scale * kChart - 3;
        svg << "<text transform=\"translate(" << x + kBar + 3 << "," << y << ") rotate(-90)\" font-size=\"9\" "
            << (r.ratio > 1 ? "fill=\"#c0392b\"" : "fill=\"#333\"") << ">" << label << "</text>\n";
      }
    }
    text(svg, x + kBar, top + kChart + 11, std::to_string(mb), "font-size=\"8\" text-anchor=\"middle\" fill=\"#555\"");
    x += 2 * kBar + kPairGap;
  }
}

void draw_panel(std::ostream &svg, const PanelKey &key, const Panel &p, double top, const Peak &peak) {
  double scale = 100;  // % of peak at the top of the chart; higher when a bar is above 100 %
  for (const auto &c : p.cases) {
    scale = std::max(scale, percent_of_peak(gflops(c.second->layer, c.second->ours_ms), key.second, peak));
  }
  const int width = kLeft + static_cast<int>(p.layers.size()) * layer_width(p);
  char title[160];
  std::snprintf(title, sizeof title,
                "%s, %d thread%s: %% of the FMA peak (%.1f GFLOP/s per thread), ours (blue) beside oneDNN (grey); "
                "ours/oneDNN time above",
                info(static_cast<Precision>(key.first)).name, key.second, key.second == 1 ? "" : "s",
                peak.per_core_gflops);
  text(svg, kLeft, top + 16, title, "font-size=\"12\" font-weight=\"bold\"");
  const double chart_top = top + kAbove;
  for (int pct = 0; pct <= scale; pct += 20) {
    const double y = chart_top + kChart - pct / scale * kChart;
    svg << "<line x1=\"" << kLeft - 4 << "\" y1=\"" << y << "\" x2=\"" << width << "\" y2=\"" << y
        << "\" stroke=\"#e4e4e4\"/>\n";
    text(svg, kLeft - 6, y + 3, std::to_string(pct) + "%", "font-size=\"9\" text-anchor=\"end\"");
  }
  double x = kLeft;
  for (const std::string &layer : p.layers) {
    draw_layer(svg, p, layer, x, chart_top, scale, peak);
    const double mid = x + (layer_width(p) - kLayerGap) / 2.0;
    svg << "<text transform=\"translate(" << mid << "," << chart_top + kChart + 22
        << ") rotate(-40)\" font-size=\"10\" text-anchor=\"end\">" << escaped(layer) << "</text>\n";
    x += layer_width(p);
  }
  text(svg, 4, chart_top + kChart + 11, "mb", "font-size=\"8\" fill=\"#555\"");
}

}  // namespace

bool write_plot(const std::string &path, const std::vector<CaseResult> &results, const Peak &peak) {
  const std::map<PanelKey, Panel> panels = panels_of(results);
  int width = 400;
  for (const auto &p : panels) {
    width = std::max(width, kLeft + static_cast<int>(p.second.layers.size()) * layer_width(p.second) + 8);
  }
  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\""
      << std::max<size_t>(1, panels.size()) * kPanel << "\" font-family=\"sans-serif\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  double top = 0;
  for (const auto &p : panels) {
    draw_panel(svg, p.first, p.second, top, peak);
    top += kPanel;
  }
  svg << "</svg>\n";
  std::ofstream out(path);
  out << svg.str();
  return static_cast<bool>(out);
}

}  // namespace bench
}  // namespace aclnn_cpu
