"""The code as it was before a change, run side by side with today's in one benchmark.

`git archive` writes the baseline commit's `verifier_core` and `bench` into a temporary
folder and a subprocess runs a snippet there (same interpreter and packages), printing
JSON: the "before" figures come from the old code itself, never from a copy kept here.
"""
from __future__ import annotations

import json
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# The commit before issue 24 (claims as the cited words; figures compared by kind "year"
# or "number" only).
ISSUE_24_BASE = "6ce195969aac70388b17e2c3f422cf21ed5d0ea5"


# main before issue 31 (quotes over the whole body, reasons true of the page, contradicted
# figures flagged).
ISSUE_31_BASE = "af4e36c8ef3ba99d2b9056193aa709af317f1414"

# main before issue 22's speed-up of the on-demand check (rerank, queue order, corpus jobs).
ISSUE_22_BASE = "afac69fb50d7d96f6dbf78ee10057b4f7bad96cc"


def baseline_tree(commit: str = ISSUE_24_BASE, paths: tuple[str, ...] = ("verifier_core", "bench")
                  ) -> tempfile.TemporaryDirectory:
    """A temporary folder holding `paths` (default `verifier_core` and `bench`; none: the
    whole tree) as they were at `commit`."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", commit, *paths],
                             check=True, capture_output=True).stdout
    folder = tempfile.TemporaryDirectory(prefix="side-baseline-")
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(folder.name, filter="data")
    return folder


# Snippets name verifier modules as laid out now ("language.quantities"); commits before the
# verification package's sub-packages hold them flat ("quantities", "model" for the
# cross-encoder). `verification(path)` imports the module in either layout.
_LAYOUT = """
def verification(path):
    import importlib
    flat = {"model.cross_encoder": "model", "evidence.quote": "evidence", "judgement.judge": "judgement"}
    try:
        return importlib.import_module("verifier_core.verification." + path)
    except ModuleNotFoundError:
        leaf = flat.get(path, path.rpartition(".")[2])
        return importlib.import_module("verifier_core.verification." + leaf)
"""


def run_in(folder: str, snippet: str, payload: dict) -> dict:
    """Run `snippet` with the baseline first on sys.path; it reads `payload` (a dict) and
    must print one JSON object. It may call `verification("language.quantities")` to import
    a verifier module in the baseline's own layout."""
    code = (f"import sys, json\nsys.path.insert(0, {folder!r})\npayload = json.loads(sys.stdin.read())\n"
            f"{_LAYOUT}\n{snippet}")
    done = subprocess.run([sys.executable, "-c", code], input=json.dumps(payload), capture_output=True, text=True,
                          cwd=folder)
    if done.returncode != 0:
        raise RuntimeError(f"baseline run failed: {done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


# main before issue 30: citations found by URL and the claim's words, not by occurrence.
ISSUE_30_BASE = "af4e36c8ef3ba99d2b9056193aa709af317f1414"
