#pragma once
// predict of the Python estimator: the membership of new points in a fit's clusters, by the rule a
// sampled run extends its sample's clusters to every point (stages/sample/membership.hpp): within
// merge.epsilon of one of the points the cluster was found with, in the cluster's subspace, in the
// run's own arithmetic. New points go through the fit's own map to the searched values first
// (pipeline::SearchSpace: normalised with the fitted data's minimum and maximum, held in the run's
// precision, repeated columns read once, columns on levels scaled).
//
// What a fit keeps for it (a dict of numpy arrays, so that the model pickles as it is): the map,
// and per cluster only the searched values of the points it was found with, in its subspace's
// searched columns, each distinct row once.
#include <pybind11/pybind11.h>

#include "pipeline/output/run_report.hpp"
#include "python/src/array_input.hpp"

namespace subscale::python {

// The model of the run that `fitted` (the matrix it read) went through; call before the report's
// clusters are moved out.
pybind11::dict membership_model(const AnyMatrixView& fitted, const pipeline::RunReport& report);

// members(values, model, backend, threads, column_names): per cluster, the rows of `values` that
// belong to it, ascending.
void bind_membership(pybind11::module_& module);

}  // namespace subscale::python
