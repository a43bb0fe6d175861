"""The command line's config keys as Python keywords.

Every key of ``subscale run --help`` is a keyword of :class:`SubspaceClustering`, its dots written
as double underscores (``merge.min_points`` -> ``merge__min_points``), the scikit-learn habit for
nested parameters. The keys that describe a file or a run folder (``input.path``, ``join.*``,
``filter.*``, ``output.*``, ``checkpoint.*``, ...) have no keyword: the data come from ``fit(X)``
and nothing is written.
"""
from __future__ import annotations

import difflib
import numbers
from typing import Any, Dict, List, Optional

from . import _subscale

# Keys that name files, folders or the command line's display: no meaning for an in-memory fit.
_FILE_KEYS = ("input.path", "input.format", "input.dataset", "input.label_column", "input.header",
              "ground_truth.path", "report", "progress.interval")
_FILE_SECTIONS = ("join.", "filter.", "output.", "checkpoint.")
# The keywords that lead the signature, in this order, whatever the library's schema holds.
_LEADING = ("epsilon", "min_points", "mode", "backend", "significance", "consolidate", "threads")


def _schema() -> List[Dict[str, Any]]:
    return list(_subscale.config_keys())


SCHEMA: Dict[str, Dict[str, Any]] = {key["path"]: key for key in _schema()}


def keyword(path: str) -> str:
    return path.replace(".", "__")


def key_path(name: str) -> str:
    return name.replace("__", ".")


def _parse_default(key: Dict[str, Any]) -> Any:
    text = key["default"]
    if text == "":
        return None
    if text == "auto":
        return "auto"
    kind = key["kind"]
    if kind == "integer":
        return int(text)
    if kind == "number":
        return float(text)
    if kind == "boolean":
        return text.lower() in ("true", "yes", "on")
    return text


def _section_switch(name: str) -> Optional[str]:
    """'consolidate' -> 'consolidate.enabled' when the schema has that switch."""
    path = name + ".enabled"
    key = SCHEMA.get(path)
    return path if key is not None and key["kind"] == "boolean" else None


def _exposed(path: str) -> bool:
    if path in _FILE_KEYS or path.startswith(_FILE_SECTIONS):
        return False
    # A section's on/off switch is the section's own keyword (consolidate=False).
    if path.endswith(".enabled") and _section_switch(path[: -len(".enabled")]) == path:
        return False
    return True


def parameter_defaults() -> Dict[str, Any]:
    """Keyword -> default, in signature order: the leading ones, then the schema's order."""
    defaults: Dict[str, Any] = {}
    for name in _LEADING:
        if name == "threads":
            defaults[name] = None  # None: every core, as threads: auto
        elif _section_switch(name):
            defaults[name] = _parse_default(SCHEMA[name + ".enabled"])
        elif name in SCHEMA:
            key = SCHEMA[name]
            default = _parse_default(key)
            # epsilon and min_points: "auto" where the library estimates them; else required.
            defaults[name] = "auto" if default is None else default
        else:
            defaults[name] = None  # not in this version of the library: the keyword must stay None
    for path, key in SCHEMA.items():
        name = keyword(path)
        section = path[: -len(".enabled")] if path.endswith(".enabled") else ""
        if section and _section_switch(section) == path and not (section + ".").startswith(_FILE_SECTIONS):
            name = keyword(section)  # merge=False switches merge.enabled
        elif not _exposed(path):
            continue
        if name not in defaults:
            defaults[name] = _parse_default(key)
    return defaults


def _yaml_text(name: str, value: Any) -> str:
    if isinstance(value, (bool,)) or type(value).__name__ == "bool_":
        return "true" if value else "false"
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        return repr(float(value))
    if isinstance(value, str):
        return value
    raise ValueError(f"{name}={value!r}: expected a number, a string or a boolean "
                     "(a list would be a sweep: use one fit per value, e.g. sklearn's GridSearchCV)")


def suggest(name: str, names) -> str:
    close = difflib.get_close_matches(name, list(names), n=1)
    return f"; did you mean '{close[0]}'?" if close else ""


def overrides(params: Dict[str, Any]) -> List[str]:
    """The estimator's parameters as the command line's key=value overrides.

    Values equal to the library's default are left out, so the resolved config is the one a
    command-line run with the same overrides resolves to.
    """
    defaults = parameter_defaults()
    out: List[str] = []
    for name, value in params.items():
        if name not in defaults:
            raise ValueError(f"unknown parameter '{name}'{suggest(name, defaults)}")
        if name == "threads":
            if value is not None:
                out.append(f"threads={_yaml_text(name, value)}")
            continue
        switch = _section_switch(name)
        path = switch or key_path(name)
        key = SCHEMA.get(path)
        if key is None:
            if value is not None:
                raise ValueError(f"{name}={value!r}: this version of the library has no '{name}' setting; "
                                 f"leave {name}=None")
            continue
        if value is None:
            continue
        if isinstance(value, str) and value == "auto" and not key["allow_auto"]:
            if key["required"]:
                raise ValueError(f"{name}='auto' is not available in this version of the library: give a "
                                 f"value, e.g. SubspaceClustering({name}=...) ({key['help']})")
            continue  # the library's own default applies
        if isinstance(value, str) and switch and value.lower() in ("off", "on", "true", "false", "yes", "no"):
            value = value.lower() in ("on", "true", "yes")
        if value == defaults.get(name) and type(value) is type(defaults.get(name)):
            continue
        out.append(f"{path}={_yaml_text(name, value)}")
    return out
