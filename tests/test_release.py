"""What a release carries agrees with itself: one version, a valid citation, a changelog.

The version is written once, in pyproject.toml; the installed metadata, ``exactodds --version``,
``exactodds.__version__``, CITATION.cff and the changelog's latest release must all say the same.
CITATION.cff is validated against the Citation File Format 1.2.0 schema (tests/data/, copied from
github.com/citation-file-format/citation-file-format, schema.json, CC-BY-4.0).
"""

from __future__ import annotations

import json
import re
import tomllib
from importlib.metadata import version
from pathlib import Path

import jsonschema
import yaml
from click.testing import CliRunner

import exactodds
from exactodds.cli import cli

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = Path(__file__).resolve().parent / "data" / "citation-file-format-1.2.0.schema.json"


def project_version() -> str:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert "version" not in project.get("dynamic", [])
    value = project["version"]
    assert isinstance(value, str)
    return value


def test_the_version_is_written_once_and_read_everywhere() -> None:
    written = project_version()
    assert version("exactodds") == written == exactodds.__version__
    result = CliRunner().invoke(cli, ["--version"])
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0].endswith(f"version {written}")
    package = ROOT / "exactodds"
    if package.is_dir():  # a checkout: no module writes the version out again
        for path in package.rglob("*.py"):
            assert f'"{written}"' not in path.read_text(encoding="utf-8"), path


def test_citation_is_valid_cff_1_2_and_cites_this_version() -> None:
    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft7Validator.check_schema(schema)
    errors = [error.message for error in jsonschema.Draft7Validator(schema).iter_errors(citation)]
    assert errors == []
    assert citation["cff-version"] == "1.2.0"
    assert citation["version"] == project_version()


def test_the_schema_refuses_a_broken_citation() -> None:
    # The validation above can fail: a citation without authors or with a bad date is refused.
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    del citation["authors"]
    citation["date-released"] = "1 December 2026"
    messages = [error.message for error in jsonschema.Draft7Validator(schema).iter_errors(citation)]
    assert any("authors" in message for message in messages)
    assert any("1 December 2026" in message for message in messages)


def test_the_changelog_keeps_unreleased_then_this_version() -> None:
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    releases = re.findall(r"^## \[([^\]]+)\](?: - (\d{4}-\d{2}-\d{2}))?$", changelog, re.MULTILINE)
    assert releases[0] == ("Unreleased", "")
    assert releases[1][0] == project_version()
    assert all(date for _, date in releases[1:])
    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    assert citation["date-released"] == releases[1][1]
