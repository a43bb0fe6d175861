#pragma once
// Stage sample (docs/sampling.md): discovery on a sample of a large input, membership for every
// point. When the whole input would make the unit budget, not the data's spacing, set epsilon, the
// run finds its clusters on a uniform sample (uniform_sample.hpp) and then decides every point's
// membership in each cluster in the cluster's subspace (membership.hpp); pipeline/steps/ decides
// when, and tests the clusters on the whole data. `predict` of the Python estimator applies the
// same membership rule to new points.
#include "stages/sample/membership.hpp"
#include "stages/sample/membership_cuda.hpp"
#include "stages/sample/uniform_sample.hpp"
