#include "wrinkle/buckling/layout.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "absl/strings/str_format.h"
#include "common/status_macros.h"

namespace crease {
namespace {

constexpr int kSections = 65;  // unfolding sections along the tube
constexpr int kAngles = 96;    // samples around each section

Eigen::Vector3d Evaluate(const SurfacePoint& p,
                         absl::Span<const float> positions) {
  Eigen::Vector3d sum = Eigen::Vector3d::Zero();
  for (int k = 0; k < 3; ++k) {
    const float* v = &positions[3 * static_cast<size_t>(p.vertices[k])];
    sum += p.weights[k] * Eigen::Vector3d(v[0], v[1], v[2]);
  }
  return sum;
}

// The approximate unfolding: per section its circumference and the angle at
// each fraction of it, and the unfolded height of each section.
struct Unfolding {
  std::vector<double> heights;        // unfolded, per section
  std::vector<double> circumference;  // per section
  // Per section, kAngles + 1 cumulative arc lengths (fractions of the
  // circumference) at angles 2 pi m / kAngles.
  std::vector<std::vector<double>> arc_fraction;

  // The section coordinate (fractional index) at unfolded height y.
  double SectionAt(double y) const {
    const auto it = std::upper_bound(heights.begin(), heights.end(), y);
    const int hi = std::clamp(static_cast<int>(it - heights.begin()), 1,
                              static_cast<int>(heights.size()) - 1);
    const double span = heights[hi] - heights[hi - 1];
    const double f = span > 0 ? (y - heights[hi - 1]) / span : 0;
    return hi - 1 + std::clamp(f, 0.0, 1.0);
  }
  // The angle at which section k's arc reaches `fraction` of it.
  double AngleAt(int k, double fraction) const {
    const std::vector<double>& arc = arc_fraction[k];
    const auto it = std::upper_bound(arc.begin(), arc.end(), fraction);
    const int hi = std::clamp(static_cast<int>(it - arc.begin()), 1, kAngles);
    const double span = arc[hi] - arc[hi - 1];
    const double f = span > 0 ? (fraction - arc[hi - 1]) / span : 0;
    return 2 * std::numbers::pi * (hi - 1 + std::clamp(f, 0.0, 1.0)) / kAngles;
  }
};

Unfolding Unfold(const TubeChart& chart, absl::Span<const float> positions) {
  std::vector<std::vector<Eigen::Vector3d>> samples(
      kSections, std::vector<Eigen::Vector3d>(kAngles));
  for (int k = 0; k < kSections; ++k) {
    for (int m = 0; m < kAngles; ++m) {
      samples[k][m] =
          Evaluate(chart.Locate(2 * std::numbers::pi * m / kAngles,
                                static_cast<double>(k) / (kSections - 1)),
                   positions);
    }
  }
  Unfolding unfolding;
  unfolding.heights.push_back(0);
  for (int k = 0; k < kSections; ++k) {
    std::vector<double> arc = {0};
    for (int m = 0; m < kAngles; ++m) {
      arc.push_back(arc.back() +
                    (samples[k][(m + 1) % kAngles] - samples[k][m]).norm());
    }
    const double length = std::max(arc.back(), 1e-300);
    for (double& a : arc) a /= length;
    unfolding.circumference.push_back(length);
    unfolding.arc_fraction.push_back(std::move(arc));
    if (k + 1 < kSections) {  // the mean gap over the axial lines
      double gap = 0;
      for (int m = 0; m < kAngles; ++m) {
        gap += (samples[k + 1][m] - samples[k][m]).norm();
      }
      unfolding.heights.push_back(unfolding.heights.back() + gap / kAngles);
    }
  }
  return unfolding;
}

double CircumferenceAt(const Unfolding& u, double y) {
  const double s = u.SectionAt(y);
  const int k = std::min(static_cast<int>(s), kSections - 2);
  return u.circumference[k] +
         (u.circumference[k + 1] - u.circumference[k]) * (s - k);
}

// Row heights from the first loop up, each as high as its own radius folds
// (Eq. 1 with Eq. 2), whole rows scaled to fill the length.
// RESOURCE_EXHAUSTED when they need more fine vertices than the params allow.
absl::StatusOr<std::vector<double>> RowHeights(const Unfolding& unfolding,
                                               const TubeLayout& layout,
                                               const BucklingParams& params,
                                               int cells,
                                               int64_t fine_vertices_before) {
  std::vector<double> heights;
  double y = 0;
  while (y < layout.unfolded_length && heights.size() < 4096) {
    const double radius =
        CircumferenceAt(unfolding, y) / (2 * std::numbers::pi);
    heights.push_back(FoldingDiamondHeight(radius, layout.diamonds));
    y += heights.back();
  }
  // Whole rows: drop the last when it is less than half inside, then scale.
  if (heights.size() > 1 && y - layout.unfolded_length > 0.5 * heights.back()) {
    y -= heights.back();
    heights.pop_back();
  }
  if (heights.size() >= 4096) {
    return absl::InvalidArgumentError(
        "the tube needs over 4096 rows of primitives (fabric_a too small)");
  }
  const int64_t fine_vertices =
      (int64_t{cells} * static_cast<int64_t>(heights.size()) + 1) *
      (int64_t{cells} * layout.diamonds + 1);
  if (fine_vertices_before + fine_vertices > params.max_fine_vertices) {
    return absl::ResourceExhaustedError(absl::StrFormat(
        "%d rows of %d primitives need %d fine vertices, over the limit of "
        "%d for all tubes (a larger fabric_a or calibration_radius makes "
        "fewer)",
        heights.size(), layout.diamonds, fine_vertices_before + fine_vertices,
        params.max_fine_vertices));
  }
  for (double& h : heights) h *= layout.unfolded_length / y;
  return heights;
}

// The control lattice and the fine grid's points, embedded in the coarse mesh
// through the chart: at unfolded heights (`lattice_y`, then `cells` / 2 fine
// rows a lattice step) and equal fractions of each section's arc.
void Embed(const TubeChart& chart, const Unfolding& unfolding,
           const std::vector<double>& lattice_y, int cells,
           TubeLayout* layout_out) {
  TubeLayout& layout = *layout_out;
  // A point at unfolded height y and fraction of the way around.
  const auto locate = [&](double y, double fraction) {
    const double s = unfolding.SectionAt(y);
    const int k = std::min(static_cast<int>(s), kSections - 2);
    const double a0 = unfolding.AngleAt(k, fraction);
    const double a1 = unfolding.AngleAt(k + 1, fraction);
    const double angle =
        a0 + std::remainder(a1 - a0, 2 * std::numbers::pi) * (s - k);
    return chart.Locate(angle, s / (kSections - 1));
  };
  const int columns = layout.lattice_columns();
  for (int r = 0; r < layout.lattice_rows(); ++r) {
    for (int c = 0; c < columns; ++c) {
      layout.lattice.push_back(
          locate(lattice_y[r], static_cast<double>(c) / columns));
    }
  }
  const int steps = cells / 2;  // fine cells a lattice step
  for (int r = 0; r < layout.lattice_rows(); ++r) {
    for (int q = 0; q < (r + 1 < layout.lattice_rows() ? steps : 1); ++q) {
      const double y =
          r + 1 < layout.lattice_rows()
              ? lattice_y[r] + (lattice_y[r + 1] - lattice_y[r]) * q / steps
              : lattice_y[r];
      for (int c = 0; c < columns * steps; ++c) {
        layout.fine.push_back(
            locate(y, static_cast<double>(c) / (columns * steps)));
      }
    }
  }
}

}  // namespace

absl::Status ValidateBucklingParams(const BucklingParams& p) {
  const auto bad = [](const char* field, double value, const char* range) {
    return absl::InvalidArgumentError(
        absl::StrFormat("%s: %g is outside %s", field, value, range));
  };
  if (!(p.fabric_a >= 0 && p.fabric_a <= 1e3)) {
    return bad("fabric_a", p.fabric_a, "[0, 1000]");
  }
  if (p.calibration_diamonds < 2 || p.calibration_diamonds > 32) {
    return bad("calibration_diamonds", p.calibration_diamonds, "[2, 32]");
  }
  if (!(p.calibration_radius >= 0 && p.calibration_radius <= 1e6)) {
    return bad("calibration_radius", p.calibration_radius, "[0, 1e6]");
  }
  if (!(p.elastic_compression >= 0 && p.elastic_compression <= 0.5)) {
    return bad("elastic_compression", p.elastic_compression, "[0, 0.5]");
  }
  if (!(p.twist_gain >= 0 && p.twist_gain <= 4)) {
    return bad("twist_gain", p.twist_gain, "[0, 4]");
  }
  if (p.smoothing_passes < 0 || p.smoothing_passes > 8) {
    return bad("smoothing_passes", p.smoothing_passes, "[0, 8]");
  }
  return absl::OkStatus();
}

double FabricFromCalibration(int diamonds, double radius) {
  return std::sqrt(radius) * (1 - std::cos(std::numbers::pi / diamonds));
}

int DiamondsPerSection(double fabric_a, double radius) {
  const double c = 1 - fabric_a / std::sqrt(radius);
  if (!(c > -1)) return 2;
  const double n = std::round(std::numbers::pi / std::acos(std::min(c, 1.0)));
  return static_cast<int>(std::clamp(n, 2.0, 32.0));
}

double DiamondWidth(double radius, int diamonds) {
  return 2 * radius * std::sin(std::numbers::pi / diamonds);
}

double FabricDiamondHeight(double fabric_a, double radius) {
  return fabric_a * std::sqrt(radius);
}

double FoldingDiamondHeight(double radius, int diamonds) {
  return radius * (1 - std::cos(std::numbers::pi / diamonds));
}

absl::StatusOr<TubeLayout> LayOutTube(const MeshTopology& topology,
                                      absl::Span<const float> rest_positions,
                                      const Tube& tube,
                                      const BucklingParams& params, int cells,
                                      int64_t fine_vertices_before,
                                      bool rows_only) {
  absl::StatusOr<TubeChart> chart =
      TubeChart::Build(topology, rest_positions, tube);
  if (!chart.ok()) return chart.status();
  const Unfolding unfolding = Unfold(*chart, rest_positions);
  TubeLayout layout;
  double mean_circumference = 0;
  for (double c : unfolding.circumference) mean_circumference += c;
  mean_circumference /= kSections;
  layout.radius = mean_circumference / (2 * std::numbers::pi);
  layout.unfolded_length = unfolding.heights.back();
  if (!(layout.radius > 0 && layout.unfolded_length > 0)) {
    return absl::InvalidArgumentError("the tube has no extent");
  }
  layout.fabric_a = params.fabric_a > 0
                        ? params.fabric_a
                        : FabricFromCalibration(params.calibration_diamonds,
                                                params.calibration_radius > 0
                                                    ? params.calibration_radius
                                                    : layout.radius);
  layout.diamonds = DiamondsPerSection(layout.fabric_a, layout.radius);
  CREASE_ASSIGN_OR_RETURN(
      std::vector<double> heights,
      RowHeights(unfolding, layout, params, cells, fine_vertices_before));
  layout.rows = static_cast<int>(heights.size());
  layout.row_heights = heights;
  // The lattice: rows at the row boundaries and middles.
  std::vector<double> lattice_y = {0};
  for (double h : heights) {
    lattice_y.push_back(lattice_y.back() + h / 2);
    lattice_y.push_back(lattice_y.back() + h / 2);
  }
  for (int i = 0; i < layout.rows; ++i) {
    layout.row_widths.push_back(
        CircumferenceAt(unfolding, lattice_y[2 * i + 1]) / layout.diamonds);
  }
  if (!rows_only) Embed(*chart, unfolding, lattice_y, cells, &layout);
  return layout;
}

}  // namespace crease
