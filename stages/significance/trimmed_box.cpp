#include "stages/significance/trimmed_box.hpp"

#include <cmath>
#include <cstdint>
#include <vector>

#include "stages/significance/binomial_tail.hpp"
#include "stages/significance/edge_peeling.hpp"
#include "stages/significance/search_correction.hpp"

namespace subscale::significance {

template <class T>
SubspaceCluster trim_while_stronger(const ColumnMatrix<T>& values, const Marginals& marginals,
                                    SubspaceCluster cluster) {
  if (cluster.points.size() < 4 || cluster.dimensions.empty()) return cluster;
  std::vector<std::vector<double>> coordinates;
  for (const auto j : cluster.dimensions) {
    const T* column = values.col(j).data();
    auto& axis = coordinates.emplace_back();
    axis.reserve(cluster.points.size());
    for (const auto p : cluster.points) axis.push_back(static_cast<double>(column[p]));
  }
  const double log_search = log_search_size(marginals, cluster.dimensions);
  const Strength strength = [&](const Ends& ends, std::size_t points) {
    double log_p0 = 0;
    for (std::size_t i = 0; i < cluster.dimensions.size(); ++i)
      log_p0 += std::log(marginals.mass(cluster.dimensions[i], ends.lo[i], ends.hi[i]));
    return -(log_binomial_upper_tail(marginals.points(), log_p0, points) + log_search) / std::log(10.0);
  };
  const auto kept = peel_while_stronger(coordinates, strength);
  return keeping(std::move(cluster), kept);
}

template SubspaceCluster trim_while_stronger(const ColumnMatrix<float>&, const Marginals&, SubspaceCluster);
template SubspaceCluster trim_while_stronger(const ColumnMatrix<double>&, const Marginals&, SubspaceCluster);

}  // namespace subscale::significance
