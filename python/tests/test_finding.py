"""The ways of finding the libraries: ACLNN_CPU_LIB_DIR from a checkout, pip into a venv (offline), the package
``cmake --install`` put into the prefix, a copy inside the package; and the errors when nothing fits."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from conftest import LIB_DIR, PACKAGE_UNDER_PREFIX, PREFIX, PYTHON_DIR, python_env, run_python

# Runs the documentation sample and reports which package and libraries did it.
SAMPLE = textwrap.dedent("""
    import json, numpy as np, aclnn_cpu
    ones = [np.ones(s, np.float32) for s in ((2, 2, 7, 7), (2, 2, 7, 7), (2, 2, 1, 1))]
    gi, gw, gb = aclnn_cpu.convolution_backward(*ones, [2], [1, 1], [0, 0], [1, 1], False, [0, 0], 1, [True] * 3,
                                                cube_math_type=1)
    info = aclnn_cpu.library_info()
    print(json.dumps({"package": aclnn_cpu.__file__, "origin": info["origin"], "path": info["path"],
                      "sums": [float(gi.flat[0]), float(gw.flat[0]), float(gb.flat[0])]}))
""")


def sample(env: dict, cwd: Path, python: str = sys.executable) -> dict:
    done = run_python(SAMPLE, env, cwd=cwd, python=python)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["sums"] == [2.0, 98.0, 98.0]
    return report


def test_a_checkout_with_aclnn_cpu_lib_dir(tmp_path: Path) -> None:
    report = sample(python_env(ACLNN_CPU_LIB_DIR=LIB_DIR), tmp_path)
    assert report["package"].startswith(str(PYTHON_DIR / "aclnn_cpu"))
    assert report["origin"] == "ACLNN_CPU_LIB_DIR" and report["path"] == os.path.join(LIB_DIR, "libascendcl.so")


def test_pip_into_a_venv_offline(tmp_path: Path) -> None:
    source = tmp_path / "src"  # pip builds in the source tree: a copy keeps the checkout clean
    shutil.copytree(PYTHON_DIR, source, ignore=shutil.ignore_patterns("tests", "bench", "build", "*.egg-info",
                                                                      "__pycache__"))
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True, timeout=120)
    pip = subprocess.run([str(venv / "bin" / "pip"), "install", "--no-index", "--no-build-isolation", str(source)],
                         capture_output=True, text=True, timeout=300)
    assert pip.returncode == 0, pip.stdout + pip.stderr
    env = python_env(PYTHONPATH=None, ACLNN_CPU_LIB_DIR=LIB_DIR)
    report = sample(env, tmp_path, python=str(venv / "bin" / "python"))
    assert report["package"].startswith(str(venv)) and report["origin"] == "ACLNN_CPU_LIB_DIR"
    cli = subprocess.run([str(venv / "bin" / "python"), "-m", "aclnn_cpu", "info"], env=env, capture_output=True,
                         text=True, timeout=120)
    assert cli.returncode == 0 and json.loads(cli.stdout)["origin"] == "ACLNN_CPU_LIB_DIR"


def test_the_package_cmake_installed_finds_its_prefix_with_no_variable(tmp_path: Path) -> None:
    site = PREFIX / PACKAGE_UNDER_PREFIX
    if not (site / "aclnn_cpu" / "_install_prefix.py").is_file():
        pytest.skip(f"no cmake-installed package under {site} (ACLNN_CPU_TEST_PREFIX)")
    report = sample(python_env(PYTHONPATH=str(site), ACLNN_CPU_LIB_DIR=None, LD_LIBRARY_PATH=None), tmp_path)
    assert report["package"].startswith(str(site))
    assert report["origin"] == "the install prefix"
    assert report["path"] == str(PREFIX / "lib64" / "libascendcl.so")


def test_the_cmake_installed_package_through_a_pth_file(tmp_path: Path) -> None:
    site = PREFIX / PACKAGE_UNDER_PREFIX
    if not (site / "aclnn_cpu" / "_install_prefix.py").is_file():
        pytest.skip(f"no cmake-installed package under {site} (ACLNN_CPU_TEST_PREFIX)")
    env = python_env(PYTHONPATH=None, ACLNN_CPU_LIB_DIR=None, PYTHONUSERBASE=str(tmp_path / "user"))
    user_site = run_python("import site; print(site.getusersitepackages())", env).stdout.strip()
    Path(user_site).mkdir(parents=True)
    (Path(user_site) / "aclnn_cpu.pth").write_text(f"{site}\n")
    report = sample(env, tmp_path)
    assert report["package"].startswith(str(site)) and report["origin"] == "the install prefix"


def test_the_readmes_example_prints_what_the_readme_says(tmp_path: Path) -> None:
    site = PREFIX / PACKAGE_UNDER_PREFIX
    if not (site / "aclnn_cpu" / "_install_prefix.py").is_file():
        pytest.skip(f"no cmake-installed package under {site} (ACLNN_CPU_TEST_PREFIX)")
    text = (PYTHON_DIR.parent / "README.md").read_text()
    section = text[text.index("## From Python"):]
    script = section[section.index("```sh\n") + 6:section.index("\n```\n")]
    promised = re.search(r"prints `([^`]*)`", section).group(1)
    done = subprocess.run(["bash", "-c", script], env=python_env(P=str(PREFIX), PYTHONPATH=None,
                                                                 ACLNN_CPU_LIB_DIR=None),
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == promised


def test_a_copy_of_the_libraries_inside_the_package(tmp_path: Path) -> None:
    shutil.copytree(PYTHON_DIR / "aclnn_cpu", tmp_path / "aclnn_cpu", ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "aclnn_cpu" / "lib64").mkdir()
    for name in os.listdir(LIB_DIR):
        if name.endswith(".so"):
            shutil.copy(os.path.join(LIB_DIR, name), tmp_path / "aclnn_cpu" / "lib64")
    report = sample(python_env(PYTHONPATH=str(tmp_path), ACLNN_CPU_LIB_DIR=None, LD_LIBRARY_PATH=None), tmp_path)
    assert report["origin"] == "the package's copy"
    assert report["path"] == str(tmp_path / "aclnn_cpu" / "lib64" / "libascendcl.so")


def test_the_dynamic_loaders_path_comes_last(tmp_path: Path) -> None:
    report = sample(python_env(ACLNN_CPU_LIB_DIR=None, LD_LIBRARY_PATH=LIB_DIR), tmp_path)
    assert report["origin"] == "the dynamic loader's search path"


def test_finding_nothing_names_every_place_tried(tmp_path: Path) -> None:
    done = run_python("import aclnn_cpu; aclnn_cpu.library_info()",
                      python_env(ACLNN_CPU_LIB_DIR=None, LD_LIBRARY_PATH=None), cwd=tmp_path)
    assert done.returncode != 0
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("aclnn_cpu._errors.LibraryNotFoundError: cannot find libascendcl.so"), last
    for place in ("ACLNN_CPU_LIB_DIR (not set)", "the package's copy", "the install prefix (none recorded",
                  "the dynamic loader's search path"):
        assert place in last, last
    empty = run_python("import aclnn_cpu; aclnn_cpu.library_info()", python_env(ACLNN_CPU_LIB_DIR=str(tmp_path)))
    assert f"ACLNN_CPU_LIB_DIR={tmp_path} does not hold libascendcl.so" in empty.stderr


def test_a_library_without_the_extensions_runs_cann_calls_and_refuses_soc_and_threads(
        aclnn: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """What a real CANN toolkit's libraries look like to the package: no aclnnCpu* functions."""
    import numpy as np

    lib = aclnn.library()
    monkeypatch.setattr(lib, "_extensions", {})
    ones = [np.ones(s, np.float32) for s in ((2, 2, 7, 7), (2, 2, 7, 7), (2, 2, 1, 1))]
    args = ([2], [1, 1], [0, 0], [1, 1], False, [0, 0], 1, [True] * 3)
    assert float(aclnn.convolution_backward(*ones, *args, cube_math_type="torch_npu")[1].flat[0]) == 98.0
    for keyword in ({"soc": "Ascend950"}, {"threads": 2}):
        with pytest.raises(aclnn.ExtensionUnavailableError, match="aclnnCpuSetThread"):
            aclnn.convolution_backward(*ones, *args, **keyword)
    assert aclnn.library_info()["version"] is None
