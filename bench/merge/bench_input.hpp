#pragma once
// Inputs for the merge benchmark, kept out of the project's libraries on purpose: a tiny ARFF
// parse (numeric attributes only, the nominal class attribute skipped) and min-max
// normalisation, so that the benchmark runs on the OpenSubspace files without depending on the
// load stage; and a synthetic generator of subspace clusters for when the files are absent.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/dataset.hpp"
#include "common/subspace_cluster.hpp"

namespace subscale::bench {

inline std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

// The numeric attributes of a dense ARFF file, as an n x d matrix.
inline Matrix read_arff_numeric(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::vector<bool> numeric;
  std::string line;
  bool data = false;
  std::vector<std::vector<double>> rows;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '%') continue;
    if (!data) {
      const std::string l = lower(line);
      if (l.rfind("@attribute", 0) == 0) {
        numeric.push_back(l.find('{') == std::string::npos);  // nominal attributes have {...}
      } else if (l.rfind("@data", 0) == 0) {
        data = true;
      }
      continue;
    }
    std::vector<double> row;
    std::stringstream cells(line);
    std::string cell;
    for (std::size_t a = 0; std::getline(cells, cell, ','); ++a) {
      if (a < numeric.size() && numeric[a]) row.push_back(std::stod(cell));
    }
    rows.push_back(std::move(row));
  }
  if (rows.empty()) throw std::runtime_error(path + " has no data rows");
  Matrix x(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(rows[0].size()));
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].size() != rows[0].size()) throw std::runtime_error(path + ": ragged row " + std::to_string(i));
    for (std::size_t j = 0; j < rows[i].size(); ++j)
      x(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = rows[i][j];
  }
  return x;
}

// (x - min) / (max - min) per dimension; a constant dimension maps to 0 (docs/method.md §1).
inline void normalise_minmax(Matrix& x) {
  for (Eigen::Index j = 0; j < x.cols(); ++j) {
    const double lo = x.col(j).minCoeff(), hi = x.col(j).maxCoeff();
    if (hi > lo) {
      x.col(j) = (x.col(j).array() - lo) / (hi - lo);
    } else {
      x.col(j).setZero();
    }
  }
}

// Data like the OpenSubspace generator's: `clusters` hidden clusters of `size` points, each in a
// random subspace of 50-80% of the dimensions (normal spread `spread` there, uniform elsewhere),
// plus `noise` uniform points. Fills `hidden` with the ground truth.
inline Matrix synthetic_subspace_data(std::size_t dims, std::size_t clusters, std::size_t size, std::size_t noise,
                                      double spread, std::uint64_t seed, std::vector<SubspaceCluster>& hidden) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  std::normal_distribution<double> normal(0.0, spread);
  const std::size_t n = clusters * size + noise;
  Matrix x(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(dims));
  for (Eigen::Index i = 0; i < x.rows(); ++i)
    for (Eigen::Index j = 0; j < x.cols(); ++j) x(i, j) = uniform(random);
  hidden.clear();
  for (std::size_t c = 0; c < clusters; ++c) {
    SubspaceCluster truth;
    const std::size_t relevant = dims / 2 + random() % (dims * 3 / 10 + 1);
    std::vector<std::uint32_t> all(dims);
    for (std::uint32_t j = 0; j < dims; ++j) all[j] = j;
    std::shuffle(all.begin(), all.end(), random);
    truth.dimensions.assign(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(relevant));
    std::sort(truth.dimensions.begin(), truth.dimensions.end());
    for (std::size_t i = 0; i < size; ++i) truth.points.push_back(static_cast<std::uint32_t>(c * size + i));
    for (std::uint32_t j : truth.dimensions) {
      const double centre = 0.1 + 0.8 * uniform(random);
      for (std::uint32_t p : truth.points) x(p, j) = std::clamp(centre + normal(random), 0.0, 1.0);
    }
    hidden.push_back(std::move(truth));
  }
  return x;
}

}  // namespace subscale::bench
