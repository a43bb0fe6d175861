"""predict and predict_memberships: new points' membership in a fit's clusters by the rule a sampled
run extends its sample's clusters with (within merge.epsilon of a point the cluster was found with,
in its subspace), after the fit's own map of the data (its min and max, precision, repeated columns
and levels)."""
import pickle
import warnings

import numpy as np
import pytest

import subscale
from subscale import SubspaceClustering

from conftest import QUICKSTART, QUICKSTART_PARAMS

QUICK = dict(QUICKSTART_PARAMS, progress=False)


def memberships_of(model, points):
    """The fit's own membership: a points x clusters table of clusters_."""
    table = np.zeros((points, len(model.clusters_)), dtype=bool)
    for c, (_, rows) in enumerate(model.clusters_):
        table[rows, c] = True
    return table


@pytest.fixture(scope="module")
def quickstart():
    return subscale.load(QUICKSTART).values


@pytest.fixture(scope="module")
def planted():
    """6000 points in 10 columns with three planted clusters; columns 3 and 6 on integer levels
    (levels: auto scales them), column 8 a x + b of column 1 and column 9 a mirror of column 4
    (folded into them under the test)."""
    rng = np.random.default_rng(7)
    X = rng.uniform(size=(6000, 8))
    X[:900, [1, 4]] = rng.normal([0.3, 0.6], 0.02, size=(900, 2))
    X[900:1500, [0, 2, 5]] = rng.normal([0.7, 0.2, 0.5], 0.02, size=(600, 3))
    X[1500:2000, [3, 6]] = rng.normal([0.4, 0.8], 0.03, size=(500, 2))
    X[:, 3] = np.round(X[:, 3] * 40)
    X[:, 6] = np.round(X[:, 6] * 25)
    return np.column_stack([X, 2 * X[:, 1] + 1, 1 - 3 * X[:, 4]])


@pytest.fixture(scope="module")
def unsampled(quickstart):
    return SubspaceClustering(**QUICK).fit(quickstart)


# (a) After a fit on a sample, predict on the fitted points is the run's own membership, exactly.
@pytest.mark.parametrize("extra", [{}, {"input__precision": "float32"}], ids=["float64", "float32"])
def test_on_a_sampled_fit_predict_is_the_runs_membership_of_every_point(quickstart, extra):
    model = SubspaceClustering(**QUICK, sample=True, sample__points=500, **extra).fit(quickstart)
    assert model.summary_["sample"]["points"] == 500 and len(model.clusters_) == 5
    np.testing.assert_array_equal(model.predict_memberships(quickstart), memberships_of(model, len(quickstart)))
    np.testing.assert_array_equal(model.predict(quickstart), model.labels_)
    # The rule reads the sample's points alone: within merge.epsilon of every member it would reach further.
    assert all(len(ref) < len(points) for ref, (_, points) in zip(model._membership["references"], model.clusters_))


@pytest.mark.parametrize("extra", [{}, {"input__precision": "float32"}, {"normalize": "none"}],
                         ids=["float64", "float32", "no-normalisation"])
def test_the_fits_levels_and_repeated_columns_are_applied_to_the_new_points(planted, extra):
    model = SubspaceClustering(progress=False, sample=True, sample__points=1500, **extra).fit(planted)
    assert model.summary_["sample"]["points"] == 1500
    assert "levels      " in model.log_  # columns 3 and 6 were scaled
    if "normalize" not in extra:  # a x + b and 1 - x repeat their columns only after normalisation
        assert "columns     2 of 10 columns repeat another" in model.log_
        assert [1, 4, 8, 9] in [dims.tolist() for dims, _ in model.clusters_]
        # A repeated column is read in its group's first column, as the search read it.
        assert all(8 not in columns and 9 not in columns for columns in model._membership["columns"])
    np.testing.assert_array_equal(model.predict_memberships(planted), memberships_of(model, len(planted)))
    np.testing.assert_array_equal(model.predict(planted), model.labels_)


# (b) After a fit on every point: a cluster's points are predicted in it, and some more.
def test_on_an_unsampled_fit_every_member_is_predicted_in_its_cluster(unsampled, quickstart):
    predicted = unsampled.predict_memberships(quickstart)
    fitted = memberships_of(unsampled, len(quickstart))
    assert predicted.shape == fitted.shape == (1000, 5)
    assert (predicted | ~fitted).all()  # a superset: merge's border rule is narrower than the radius
    labels = unsampled.predict(quickstart)
    assert (labels[unsampled.labels_ >= 0] >= 0).all()


def test_a_point_far_from_every_cluster_is_in_none(unsampled, quickstart):
    far = quickstart[:3] + 10.0  # ten times the fitted range beyond it in every column
    assert unsampled.predict(far).tolist() == [-1, -1, -1]
    assert not unsampled.predict_memberships(far).any()
    beyond_float = np.full((1, quickstart.shape[1]), 1e300)
    assert unsampled.predict(beyond_float).tolist() == [-1]


# (c) New points near members are members; bad input is refused clearly.
def test_points_shifted_slightly_from_members_are_members(unsampled, quickstart):
    low, high = quickstart.min(axis=0), quickstart.max(axis=0)
    rng = np.random.default_rng(5)
    radius = 0.02  # merge.epsilon on the normalised scale
    for c, (dims, points) in enumerate(unsampled.clusters_):
        shift = rng.normal(size=(len(points), len(dims)))
        shift *= 0.5 * radius / np.linalg.norm(shift, axis=1, keepdims=True)  # half the radius away
        moved = quickstart[points].copy()
        moved[:, dims] += shift * (high - low)[dims]
        assert unsampled.predict_memberships(moved)[:, c].all(), c
        # Moved in the other columns as far as you like, they stay: the cluster reads only its subspace.
        others = np.setdiff1d(np.arange(quickstart.shape[1]), dims)
        moved[:, others] = 100.0
        assert unsampled.predict_memberships(moved)[:, c].all(), c


def test_one_point_and_other_dtypes_are_read_as_fit_reads_them(unsampled, quickstart):
    expected = unsampled.predict(quickstart[:50])
    assert unsampled.predict(quickstart[:1]).tolist() == expected[:1].tolist()
    np.testing.assert_array_equal(unsampled.predict(np.asfortranarray(quickstart[:50])), expected)
    np.testing.assert_array_equal(unsampled.predict(quickstart[:50].tolist()), expected)
    assert unsampled.predict(quickstart[:50].astype(np.float32)).shape == (50,)


def test_a_column_count_mismatch_is_refused(unsampled, quickstart):
    with pytest.raises(ValueError, match="X has 19 features, but SubspaceClustering is expecting 20 features"):
        unsampled.predict(quickstart[:, :19])
    with pytest.raises(ValueError, match="Reshape your data"):
        unsampled.predict(quickstart[0])


def test_nan_and_inf_are_refused_naming_the_row_and_column(unsampled, quickstart):
    X = quickstart[:10].copy()
    X[6, 2] = np.nan
    X[8, 0] = np.inf
    with pytest.raises(ValueError, match=r"X, row 7 \(index 6\), column 3: the value is NaN"):
        unsampled.predict(X)
    with pytest.raises(ValueError, match=r"row 7 \(index 6\), column 3"):
        unsampled.predict_memberships(np.asfortranarray(X))


def test_column_names_are_checked_as_scikit_learn_checks_them(quickstart):
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame(quickstart, columns=[f"g{j}" for j in range(20)])
    model = SubspaceClustering(**QUICK).fit(frame)
    with pytest.warns(UserWarning, match="X does not have valid feature names"):
        np.testing.assert_array_equal(model.predict(frame), model.predict(quickstart))
    with pytest.raises(ValueError, match="Feature names must be in the same order"):
        model.predict(frame[frame.columns[::-1]])
    bad = frame.copy()
    bad.iloc[4, 3] = np.nan
    with pytest.raises(ValueError, match=r"row 5 \(index 4\), column 4 \(g3\)"):
        model.predict(bad)


def test_before_fit_predict_raises_not_fitted(quickstart):
    sklearn = pytest.importorskip("sklearn")
    from sklearn.base import clone
    from sklearn.exceptions import NotFittedError

    with pytest.raises(NotFittedError, match="not fitted yet"):
        SubspaceClustering().predict(quickstart)
    with pytest.raises(NotFittedError):
        clone(SubspaceClustering(**QUICK).fit(quickstart)).predict_memberships(quickstart)
    assert sklearn.__version__


def test_a_failed_fit_leaves_nothing_to_predict_with(unsampled, quickstart):
    model = pickle.loads(pickle.dumps(unsampled))
    with pytest.raises(ValueError, match="epsilon"):
        model.set_params(epsilon=-1.0).fit(quickstart)
    with pytest.raises(ValueError, match="not fitted yet"):
        model.predict(quickstart)


# (d) The model pickles with what predict reads.
def test_predict_after_pickling_equals_predict_before(unsampled, quickstart):
    shifted = quickstart + 0.001
    back = pickle.loads(pickle.dumps(unsampled))
    np.testing.assert_array_equal(back.predict(shifted), unsampled.predict(shifted))
    np.testing.assert_array_equal(back.predict_memberships(quickstart), unsampled.predict_memberships(quickstart))


def test_the_model_keeps_only_the_clusters_points_in_their_subspaces(unsampled):
    kept = unsampled._membership["references"]
    assert [r.shape for r in kept] == [(len(p), len(d)) for d, p in unsampled.clusters_]
    assert sum(r.nbytes for r in kept) < 0.2 * 1000 * 20 * 8  # a sixth of the fitted matrix


def test_threads_and_a_fit_without_clusters(quickstart):
    one = SubspaceClustering(**QUICK, threads=1).fit(quickstart)
    np.testing.assert_array_equal(one.predict(quickstart + 0.0001), SubspaceClustering(**QUICK).fit(quickstart)
                                  .predict(quickstart + 0.0001))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # the workload warnings of uniform noise
        empty = SubspaceClustering(epsilon=0.01, min_points=3, progress=False).fit(
            np.random.default_rng(2).uniform(size=(300, 4)))
    assert len(empty.clusters_) == 0
    assert empty.predict(quickstart[:5, :4]).tolist() == [-1] * 5
    assert empty.predict_memberships(quickstart[:5, :4]).shape == (5, 0)


@pytest.mark.skipif(not subscale._subscale.cuda_available(), reason="no usable GPU, or the CUDA backend is not built")
def test_predict_on_the_gpu_equals_the_cpu(unsampled, quickstart):
    shifted = quickstart + 0.002
    gpu = pickle.loads(pickle.dumps(unsampled)).set_params(backend="cuda")
    np.testing.assert_array_equal(gpu.predict_memberships(shifted), unsampled.predict_memberships(shifted))
