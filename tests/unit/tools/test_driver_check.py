"""Driver and CUDA compatibility, checked against NVIDIA's published tables: the CUDA Toolkit Release Notes,
Table 3 (CUDA Toolkit and Corresponding Driver Versions, Linux GA: CUDA 12.2 needs 535.54.03, 12.4 needs
550.54.14, 12.8 needs 570.26) and the CUDA Compatibility guide (minor-version compatibility: CUDA 12.x runs on
525.60.13 or newer; forward compatibility through cuda-compat on data-centre GPUs only)."""

from __future__ import annotations

import pytest

from knowledge.catalog import default_catalog
from tools.common import CalculatorInputError
from tools.driver_check import DriverCheckInput, driver_check

CATALOG = default_catalog()


@pytest.mark.parametrize(
    ("driver", "cuda", "support"),
    [
        ("535.54.03", "12.2", "full"),  # exactly the release's driver
        ("535", "12.2", "full"),  # a branch named alone: its newest release
        ("535.104.05", "12.8", "minor-version"),  # 12.x on >= 525.60.13, below 570.26
        ("525.60.13", "12.4", "minor-version"),
        ("570.26", "12.8", "full"),
        ("470", "12.0", "forward-compat-only"),  # below the family minimum, on a data-centre GPU
        ("575", "13.0", "forward-compat-only"),  # CUDA 13.x needs 580.65.06
    ],
)
def test_how_a_driver_runs_a_cuda_version(driver: str, cuda: str, support: str) -> None:
    out = driver_check(DriverCheckInput(driver=driver, cuda=cuda), CATALOG)
    assert out.support == support


def test_a_blackwell_gpu_needs_cuda_12_8_and_its_driver() -> None:
    """B200 is Blackwell: CUDA 12.8 is the first toolkit with native Blackwell code, so driver 570.26 or newer;
    driver 550 cannot run it, whatever CUDA version the wheels use."""
    out = driver_check(DriverCheckInput(driver="550", gpu="b200"), CATALOG)
    assert (out.gpu_cuda, out.gpu_driver, out.gpu_supported) == ("12.8", "570.26", False)
    assert out.upgrade_to == "570.26"
    hopper = driver_check(DriverCheckInput(driver="535", gpu="h100-sxm"), CATALOG)
    assert (hopper.gpu_cuda, hopper.gpu_driver, hopper.gpu_supported) == ("11.8", "520.61.05", True)
    assert hopper.upgrade_to is None


def test_a_consumer_card_has_no_forward_compatibility() -> None:
    """cuda-compat works on data-centre GPUs only: a GeForce card below the family minimum is unsupported."""
    out = driver_check(DriverCheckInput(driver="470", cuda="12.4", gpu="rtx-4090"), CATALOG)
    assert out.support == "unsupported"


def test_what_a_cuda_version_needs_without_a_driver() -> None:
    out = driver_check(DriverCheckInput(cuda="12.8"), CATALOG)
    assert (out.release_driver, out.family_driver, out.support, out.upgrade_to) == (
        "570.26",
        "525.60.13",
        None,
        "570.26",
    )


def test_bad_input_is_refused() -> None:
    with pytest.raises(CalculatorInputError, match="CUDA version or a GPU"):
        driver_check(DriverCheckInput(driver="535"), CATALOG)
    with pytest.raises(CalculatorInputError, match="not an NVIDIA GPU"):
        driver_check(DriverCheckInput(driver="535", gpu="mi300x"), CATALOG)
    with pytest.raises(CalculatorInputError, match="not a release"):
        driver_check(DriverCheckInput(cuda="12.7"), CATALOG)


def test_cuda_13_no_longer_builds_for_volta() -> None:
    """NVIDIA's CUDA 13.0 release notes (August 2025): Maxwell, Pascal and Volta are removed from the toolkit, so
    CUDA 12.9 is the V100's last; CUDA 12.8 still builds for it."""
    dropped = driver_check(DriverCheckInput(cuda="13.0", gpu="v100-sxm2-32gb"), CATALOG)
    assert dropped.gpu_last_cuda == "12.9"
    assert any("CUDA 13.0 removed" in w for w in dropped.warnings)
    assert driver_check(DriverCheckInput(cuda="12.8", gpu="v100-sxm2-32gb"), CATALOG).gpu_last_cuda is None
    assert driver_check(DriverCheckInput(cuda="13.0", gpu="h100-sxm"), CATALOG).gpu_last_cuda is None
