"""On a machine with a GPU (and the CUDA backend built): a fit on the GPU equals the command line's
run on the GPU and the CPU fit, bit for bit. Skipped elsewhere."""
import pytest

import subscale
from subscale import SubspaceClustering

from conftest import QUICKSTART, QUICKSTART_PARAMS, QUICKSTART_TRUTH, ROOT, run_cli
from test_cli_equality import as_lists, assert_same_as_folder

pytestmark = pytest.mark.skipif(not subscale._subscale.cuda_available(),
                                reason="no usable GPU, or the CUDA backend is not built")


@pytest.mark.parametrize("extra", [{}, {"input__precision": "float32"}, {"mode": "signature"}])
def test_gpu_fit_equals_the_command_line_and_the_cpu(tmp_path, extra):
    data = subscale.load(QUICKSTART)
    gpu = SubspaceClustering(**QUICKSTART_PARAMS, backend="cuda", **extra).fit(data.values, truth=QUICKSTART_TRUTH)
    cpu = SubspaceClustering(**QUICKSTART_PARAMS, backend="cpu", **extra).fit(data.values)
    assert gpu.summary_["backend"] == "cuda"
    assert as_lists(gpu.clusters_) == as_lists(cpu.clusters_)
    assert as_lists(gpu.subspaces_) == as_lists(cpu.subspaces_)
    folder = run_cli(ROOT / "configs" / "quickstart.yaml", tmp_path / "run", *gpu._library_overrides())
    assert_same_as_folder(gpu, folder)
