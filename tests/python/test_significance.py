"""subscale.significance: the run's test applied to given clusters and to the classes of labels,
against a reference written out from the test's definition (docs/significance.md §2-3)."""
import math

import numpy as np
import pytest

import subscale


def log_tail(n, p0, k):
    """ln P(Binomial(n, p0) >= k), summed term by term."""
    terms = [math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) + i * math.log(p0) +
             (n - i) * math.log1p(-p0) for i in range(k, n + 1)]
    top = max(terms)
    return top + math.log(sum(math.exp(t - top) for t in terms))


def log_subspaces(d, s):
    return math.log(d) + math.lgamma(d + 1) - math.lgamma(s + 1) - math.lgamma(d - s + 1)


def reference_score(X, dims, points):
    """-log10 min(1, P(Binomial(n, p0) >= k) * M(S)) of the cluster's box; on a pair of
    continuous columns (which also take turned rectangles) the boxes keep 7/8 of the weight."""
    n, d = X.shape
    inside = X[np.ix_(points, dims)]
    p0 = 1.0
    log_search = log_subspaces(d, len(dims))
    for j, column in zip(dims, inside.T):
        p0 *= np.count_nonzero((X[:, j] >= column.min()) & (X[:, j] <= column.max())) / n
        u = len(np.unique(X[:, j]))
        log_search += math.log(u * (u + 1) / 2)
    if len(dims) == 2:
        log_search += math.log(8 / 7)
    log_p = log_tail(n, p0, len(points))
    return max(0.0, -(log_p + log_search) / math.log(10)), log_p / math.log(10)


def reference_turned_score(X, dims, points):
    """The turned rectangle's score: units of each column's interquartile range, the points'
    principal direction rounded to pi / 64, and the share of all n^2 value pairs inside."""
    n, d = X.shape
    a, b = dims
    units = [np.sort(X[:, j])[(3 * n) // 4] - np.sort(X[:, j])[n // 4] for j in dims]
    x, y = X[:, a] / units[0], X[:, b] / units[1]
    cov = np.cov(np.vstack([x[points], y[points]]), bias=True)
    theta = 0.5 * math.atan2(2 * cov[0, 1], cov[0, 0] - cov[1, 1]) % math.pi
    angle = (round(theta / (math.pi / 64)) % 64) * math.pi / 64
    c, s = math.cos(angle), math.sin(angle)
    u, v = c * x[points] + s * y[points], -s * x[points] + c * y[points]
    pu = c * x[:, None] + s * y[None, :]
    pv = -s * x[:, None] + c * y[None, :]
    slack = 1e-9
    inside = np.count_nonzero((pu >= u.min() - slack) & (pu <= u.max() + slack) &
                              (pv >= v.min() - slack) & (pv <= v.max() + slack))
    log_search = log_subspaces(d, 2) + math.log(64 * 8) + 2 * math.log(n * (n + 1) / 2)
    log_p = log_tail(n, inside / n ** 2, len(points))
    return max(0.0, -(log_p + log_search) / math.log(10)), log_p / math.log(10)


@pytest.fixture(scope="module")
def planted():
    rng = np.random.default_rng(7)
    X = rng.uniform(size=(400, 5))
    X[:30, [1, 3]] = 0.3 + 0.02 * rng.uniform(size=(30, 2))
    return X


def test_scores_match_the_tests_definition(planted):
    clusters = [([1, 3], list(range(30))), ([1, 3], list(range(10))), ([0, 2], list(range(100, 140)))]
    frame = subscale.significance(planted, clusters)
    for row, (dims, points) in zip(frame.itertuples(), clusters):
        score, log10_p = reference_score(planted, dims, points)
        assert row.score == pytest.approx(score, rel=1e-9, abs=1e-9)
        assert row.log10_p == pytest.approx(log10_p, rel=1e-9)
        assert row.points == len(points) and row.dimensions == len(dims)
        assert not row.turned
    # A third of the cluster is no surprise in a family of 10^11.5 boxes; the whole of it is.
    assert frame["significant"].tolist() == [True, False, False]
    assert frame.loc[0, "score"] > 2 and -4 < frame.loc[1, "log10_p"] < -2


def test_a_stretched_pair_is_judged_by_its_turned_rectangle():
    rng = np.random.default_rng(3)
    X = rng.uniform(size=(500, 6))
    t, w = rng.normal(0, 0.08, 80), rng.normal(0, 0.008, 80)
    X[:80, 1], X[:80, 4] = 0.5 + (t - w) / math.sqrt(2), 0.5 + (t + w) / math.sqrt(2)
    frame = subscale.significance(X, [([1, 4], list(range(80)))])
    score, log10_p = reference_turned_score(X, [1, 4], list(range(80)))
    assert frame.loc[0, "turned"] and frame.loc[0, "significant"]
    assert frame.loc[0, "score"] == pytest.approx(score, rel=1e-9)
    assert frame.loc[0, "log10_p"] == pytest.approx(log10_p, rel=1e-9)
    assert reference_score(X, [1, 4], list(range(80)))[0] < 2, "its box alone fails"


def test_a_box_over_most_of_the_points_never_passes(planted):
    # Half the points in two dimensions: under independent marginals still unlikely enough, but
    # its box holds more than half of every dimension's points, so it does not gather.
    order = np.lexsort((planted[:, 0], planted[:, 1]))
    wide = ([0, 1], np.sort(order[:300]).tolist())
    frame = subscale.significance(planted, [wide])
    assert frame.loc[0, "gathering_dimensions"] < 2
    assert frame.loc[0, "score"] == 0 and not frame.loc[0, "significant"]


def test_each_class_is_scored_in_every_dimension(planted):
    y = np.where(np.arange(400) < 30, "tight", "rest")
    frame = subscale.significance(planted, y)
    assert frame.index.name == "class" and sorted(frame.index) == ["rest", "tight"]
    assert frame.loc["tight", "dimensions"] == 5 and frame.loc["tight", "points"] == 30
    # The class spreads over the whole range in three of its five dimensions: one box in all five
    # gathers in the two where it is tight, and its mass there is what the test prices.
    assert frame.loc["tight", "gathering_dimensions"] == 2
    assert frame.loc["rest", "gathering_dimensions"] == 0 and not frame.loc["rest", "significant"]
    integer = subscale.significance(planted, (np.arange(400) < 30).astype(int))
    assert integer.index.tolist() == [0, 1]


def test_the_run_scores_its_own_clusters_the_same(planted):
    model = subscale.SubspaceClustering(progress=False).fit(planted)
    assert len(model.clusters_) >= 1
    frame = subscale.significance(planted, list(model.clusters_))
    np.testing.assert_allclose(frame["score"], model.scores_, rtol=1e-12)


def test_fdr_passes_at_least_what_bonferroni_passes(planted):
    clusters = [([1, 3], list(range(k))) for k in (4, 6, 8, 30)]
    strict = subscale.significance(planted, clusters)
    loose = subscale.significance(planted, clusters, correction="fdr")
    assert (loose["significant"] | ~strict["significant"]).all()


@pytest.mark.parametrize("clusters, message", [
    ([([0, 7], [1, 2, 3])], "names dimension 7"),
    ([([0, 1], [1, 2, 400])], "point 400"),
    ([([], [1, 2])], "no dimension"),
    ([([0, 0], [1, 2])], "clusters"),
])
def test_clusters_outside_the_data_are_refused(planted, clusters, message):
    with pytest.raises(ValueError, match=message):
        subscale.significance(planted, clusters)


def test_bad_settings_and_labels_are_refused(planted):
    with pytest.raises(ValueError, match="alpha"):
        subscale.significance(planted, [([0, 1], [1, 2])], alpha=0)
    with pytest.raises(ValueError, match="fdr"):
        subscale.significance(planted, [([0, 1], [1, 2])], correction="holm")
    with pytest.raises(ValueError, match="one label per row"):
        subscale.significance(planted, np.zeros(10, dtype=int))
    bad = planted.copy()
    bad[3, 2] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        subscale.significance(bad, [([0, 1], [1, 2])])
