#include "wrinkle/core/synthetic_sheet.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace crease {

io::TriangleMesh MakeOpenCylinder(double radius, double length, int around,
                                  int rings, double y0) {
  io::TriangleMesh mesh;
  for (int r = 0; r < rings; ++r) {
    for (int k = 0; k < around; ++k) {
      const double a = 2 * std::numbers::pi * k / around;
      mesh.positions.push_back(static_cast<float>(radius * std::cos(a)));
      mesh.positions.push_back(
          static_cast<float>(y0 + length * r / (rings - 1)));
      mesh.positions.push_back(static_cast<float>(-radius * std::sin(a)));
    }
  }
  for (int r = 0; r + 1 < rings; ++r) {
    for (int k = 0; k < around; ++k) {
      const int32_t p = r * around + k, q = r * around + (k + 1) % around;
      mesh.triangles.push_back({p, p + around, q});
      mesh.triangles.push_back({q, p + around, q + around});
    }
  }
  return mesh;
}

io::TriangleMesh MakeGridSheet(int nx, int nz, float width, float depth) {
  io::TriangleMesh mesh;
  mesh.positions.reserve(3 * static_cast<size_t>(nx + 1) * (nz + 1));
  for (int j = 0; j <= nz; ++j) {
    for (int i = 0; i <= nx; ++i) {
      mesh.positions.push_back(width * static_cast<float>(i) / nx);
      mesh.positions.push_back(0.0f);
      mesh.positions.push_back(depth * static_cast<float>(j) / nz);
    }
  }
  auto id = [nx](int i, int j) { return j * (nx + 1) + i; };
  mesh.triangles.reserve(2 * static_cast<size_t>(nx) * nz);
  for (int j = 0; j < nz; ++j) {
    for (int i = 0; i < nx; ++i) {
      const int a = id(i, j), b = id(i + 1, j), c = id(i + 1, j + 1),
                d = id(i, j + 1);
      if ((i + j) % 2 == 0) {
        mesh.triangles.push_back({a, c, b});
        mesh.triangles.push_back({a, d, c});
      } else {
        mesh.triangles.push_back({a, d, b});
        mesh.triangles.push_back({b, d, c});
      }
    }
  }
  return mesh;
}

void AnimateSheet(const io::TriangleMesh& rest, int frame, int period,
                  float max_squeeze, std::vector<float>* positions) {
  positions->resize(rest.positions.size());
  float width = 0, depth = 0;
  for (int v = 0; v < rest.num_vertices(); ++v) {
    width = std::max(width, rest.positions[3 * v]);
    depth = std::max(depth, rest.positions[3 * v + 2]);
  }
  const double phase = 2.0 * std::numbers::pi * frame / std::max(period, 1);
  const double amount = max_squeeze * 0.5 * (1.0 - std::cos(phase));
  for (int v = 0; v < rest.num_vertices(); ++v) {
    const double x = rest.positions[3 * v], z = rest.positions[3 * v + 2];
    const double squeeze = amount * (depth > 0 ? z / depth : 1.0);
    const double u = width > 0 ? x / width : 0.0;
    (*positions)[3 * v] = static_cast<float>(x * (1.0 - squeeze));
    (*positions)[3 * v + 1] = static_cast<float>(
        0.25 * width * squeeze * std::sin(std::numbers::pi * u));
    (*positions)[3 * v + 2] = static_cast<float>(z);
  }
}

void SqueezeSheetMiddle(const io::TriangleMesh& rest, float k,
                        std::vector<float>* positions) {
  *positions = rest.positions;
  const float two_pi = 2.0f * std::numbers::pi_v<float>;
  for (size_t i = 0; i < positions->size(); i += 3) {
    const float x = (*positions)[i];
    (*positions)[i] = x - k * std::sin(two_pi * (x - 0.5f)) / two_pi;
  }
}

void SetSheetUvs(float width, float depth, io::TriangleMesh* sheet) {
  sheet->corner_uvs.resize(6 * sheet->triangles.size());
  for (size_t f = 0; f < sheet->triangles.size(); ++f) {
    for (int k = 0; k < 3; ++k) {
      const size_t v = 3 * static_cast<size_t>(sheet->triangles[f][k]);
      sheet->corner_uvs[6 * f + 2 * k] = sheet->positions[v] / width;
      sheet->corner_uvs[6 * f + 2 * k + 1] = sheet->positions[v + 2] / depth;
    }
  }
}

void GatherSheetEdge(const io::TriangleMesh& rest, float gather, float band,
                     int coarse_folds, std::vector<float>* positions) {
  *positions = rest.positions;
  float width = 0;
  for (int v = 0; v < rest.num_vertices(); ++v) {
    width = std::max(width, rest.positions[3 * v]);
  }
  if (width <= 0) return;
  const double squeeze = 1.0 - gather;
  // Zigzag waves of slope +-s keep every edge across the sheet its rest
  // length where sqrt(squeeze^2 + s^2) = 1.
  const double slope = std::sqrt(std::max(0.0, 1.0 - squeeze * squeeze));
  const double run = width / (2.0 * std::max(coarse_folds, 1));
  const double centre = 0.5 * width;
  for (int v = 0; v < rest.num_vertices(); ++v) {
    const double x = rest.positions[3 * v], z = rest.positions[3 * v + 2];
    const double t = band > 0 ? std::clamp(z / band, 0.0, 1.0) : 1.0;
    const double waved = t * t * (3.0 - 2.0 * t);
    const double phase = std::fmod(x, 2.0 * run);
    const double zigzag = phase <= run ? phase : 2.0 * run - phase;
    (*positions)[3 * v] = static_cast<float>(centre + (x - centre) * squeeze);
    (*positions)[3 * v + 1] = static_cast<float>(waved * slope * zigzag);
  }
}

void BendSleeve(const io::TriangleMesh& rest, double angle, double elbow,
                double bend_length, std::vector<float>* positions) {
  positions->resize(rest.positions.size());
  const double start = elbow - 0.5 * bend_length;
  const double curvature = bend_length > 0 ? angle / bend_length : 0.0;
  for (int v = 0; v < rest.num_vertices(); ++v) {
    const double across = rest.positions[3 * v];  // towards the bend
    const double s = rest.positions[3 * v + 1];
    const double depth = rest.positions[3 * v + 2];
    // The centre line at s and its tangent's angle phi.
    const double in_arc = std::clamp(s - start, 0.0, bend_length);
    const double phi = curvature * in_arc;
    double cx = std::min(s, start), cy = 0.0;
    if (curvature > 0) {
      cx += std::sin(phi) / curvature;
      cy += (1.0 - std::cos(phi)) / curvature;
    } else {
      cx += in_arc;
    }
    const double beyond = std::max(0.0, s - start - bend_length);
    cx += beyond * std::cos(phi);
    cy += beyond * std::sin(phi);
    // The cross-section's "across" axis is the centre line's normal
    // (-sin phi, cos phi), which points to the centre of the bend.
    (*positions)[3 * v] = static_cast<float>(cx - across * std::sin(phi));
    (*positions)[3 * v + 1] = static_cast<float>(cy + across * std::cos(phi));
    (*positions)[3 * v + 2] = static_cast<float>(depth);
  }
}

}  // namespace crease
