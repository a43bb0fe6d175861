"""The public API's docstrings (numpydoc) say what help() and IDEs show: every keyword of the
estimator with its default, every fitted attribute, and examples that run as written."""
import doctest
import inspect
import re

import numpy as np
import pytest

import subscale
from subscale import SubspaceClustering, _data, _estimator, _results

from conftest import ROOT

PUBLIC = [subscale.SubspaceClustering, subscale.Clusters, subscale.Data, subscale.RunResult, subscale.load,
          subscale.plan, subscale.evaluate, subscale.read_run, subscale.significance]


def section(doc, title):
    """The entries of one numpydoc section: name -> the text after 'name : '."""
    doc = inspect.cleandoc(doc)
    match = re.search(rf"^{title}\n-{{{len(title)}}}\n(.*?)(?:\n\n[A-Z][A-Za-z ]+\n---|\Z)", doc, re.S | re.M)
    assert match, f"no {title} section"
    return dict(re.findall(r"^(\w+(?:, \w+)*) : (.*)$", match.group(1), re.M))


def test_every_keyword_is_documented_with_its_default():
    doc = SubspaceClustering.__doc__
    documented = {**section(doc, "Parameters"), **section(doc, "Other Parameters")}
    params = SubspaceClustering().get_params()
    assert set(documented) == set(params)
    for name, default in params.items():
        assert documented[name].endswith(f"default={default!r}"), (name, documented[name])


def test_help_lists_the_keywords_and_their_descriptions():
    shown = inspect.getdoc(SubspaceClustering)
    words = " ".join(shown.split())
    assert "merge__min_points : int or 'auto', default='auto'" in shown
    assert "consolidate__overlap : float, default=0.5" in shown
    assert "shared points / points of the smaller cluster" in words  # the schema's own words


def test_every_fitted_attribute_is_documented():
    pd = pytest.importorskip("pandas")
    X = pd.DataFrame(np.random.default_rng(3).uniform(size=(200, 4)), columns=list("abcd"))
    model = SubspaceClustering(epsilon=0.02, min_points=3, progress=False).fit(X)
    fitted = {name for name in vars(model) if name.endswith("_") and not name.startswith("_")}
    assert set(section(SubspaceClustering.__doc__, "Attributes")) == fitted


@pytest.mark.parametrize("api", PUBLIC, ids=lambda api: api.__name__)
def test_public_api_has_numpydoc_sections(api):
    doc = inspect.getdoc(api)
    assert doc and "Examples\n--------\n>>> " in doc, api
    if inspect.isfunction(api):
        assert "Returns\n-------\n" in doc
        named = set(inspect.signature(api).parameters) - {"params"}
        assert named <= set(section(api.__doc__, "Parameters")), api
    elif api is not subscale.RunResult:
        assert "Parameters\n----------\n" in doc or "Attributes\n----------\n" in doc


@pytest.mark.parametrize("method", ["fit", "fit_predict", "predict", "predict_memberships"])
def test_the_estimators_methods_have_numpydoc_sections(method):
    function = getattr(SubspaceClustering, method)
    doc = inspect.getdoc(function)
    assert "Parameters\n----------\n" in doc and "Returns\n-------\n" in doc, method
    named = set(inspect.signature(function).parameters) - {"self", "fit_params"}
    assert named <= set(section(function.__doc__, "Parameters")), method
    if method.startswith("predict"):
        assert "Examples\n--------\n>>> " in doc and "Raises\n------\n" in doc, method


def test_docstring_examples_run_as_written(monkeypatch):
    pytest.importorskip("pandas", reason="the examples show tables")
    monkeypatch.chdir(ROOT)  # the examples read datasets/ relative to the repository
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    ran = 0
    for module in (_estimator, _results, _data):
        for test in finder.find(module, globs={"subscale": subscale}):
            if test.examples:
                runner.run(test)
                ran += sum(not e.options.get(doctest.SKIP) for e in test.examples)
    failed, _ = runner.summarize(verbose=False)
    assert failed == 0
    assert ran >= 10
