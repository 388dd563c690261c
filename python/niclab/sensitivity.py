"""Which preset parameters each validation row depends on (the validation table's "why").

``sensitivity("seastar")`` re-runs the system's whole validation once with each numeric
preset parameter raised by `step` (10 %) and once with it lowered, and gives every row
its elasticity to every parameter, by central difference:

    elasticity = ((simulated(p+) - simulated(p-)) / simulated) / ((p+ - p-) / p)

an elasticity of 1 means the row moves by as many percent as the parameter; 0 that it
does not move. Integer parameters move by at least 1. Where the preset refuses one side
(a CPI of 1 cannot go down) the other side alone gives the elasticity (a one-sided
difference, listed in ``one_sided``); where it refuses both (a cache size that is no
longer a multiple of its geometry) the parameter is listed as skipped with the reason,
not guessed at. A parameter a row sets itself (the DSNIC's packet size per row) does
not move that row.

The runs are independent: they go to local worker processes or a Dask scheduler, as
``niclab.sweep`` does. Nothing here is tuned: the analysis says which assumption a
difference hangs on, never what value would close it.
"""

import math
from dataclasses import dataclass, field

from . import _niclab
from .errors import NiclabError
from .sweep import _executing
from .validation import validate

STEP = 0.10
SHOWN = 3            # parameters named per row in the table
NEGLIGIBLE = 0.01    # |elasticity| below this is not named


def _preset_of(system):
    """The preset a system's validation runs on: the one named for the system, else its first."""
    names = _niclab.preset_names()
    if system in names:
        return system
    for name in names:
        if _niclab.preset_info(name)["system"] == system:
            return name
    raise NiclabError(f"sensitivity: no preset for system {system!r}")


def _numeric(system):
    """The numeric parameter entries (key, value, unit, source) of `system`'s validation preset."""
    return [p for p in _niclab.preset_info(_preset_of(system))["parameters"]
            if isinstance(p["value"], (int, float)) and not isinstance(p["value"], bool)]


def parameters(system):
    """The numeric preset parameters of `system`'s validation preset: {key: value}."""
    return {p["key"]: p["value"] for p in _numeric(system)}


def assumptions(system):
    """The numeric preset parameters no source gives: those whose source starts "assumption:"."""
    return {p["key"] for p in _numeric(system) if p["source"].startswith("assumption:")}


def _moved(value, factor):
    """`value` times `factor`, an integer staying an integer that moves by at least 1."""
    if isinstance(value, int):
        moved = round(value * factor)
        return moved if moved != value else value + (1 if factor > 1 else -1)
    return value * factor


def _simulated(system, overrides):
    """{row key: simulated value} of one validation with `overrides`, or the error text."""
    try:
        return {c.key: c.simulated for c in validate(system, overrides=overrides).checks}
    except NiclabError as e:  # the preset refused the value: the parameter is skipped
        return f"{type(e).__name__}: {e}"


@dataclass
class Sensitivity:
    """Elasticities of a system's validation rows: ``elasticity[row][parameter]``;
    ``skipped[parameter]`` says why a parameter was not analysed; ``one_sided[parameter]``
    why only one side was; ``steps[parameter]`` holds the (low, base, high) values run;
    ``assumptions`` are the analysed parameters the preset marks "assumption:"."""

    system: str
    step: float
    assumptions: set = field(default_factory=set)
    elasticity: dict = field(default_factory=dict)
    skipped: dict = field(default_factory=dict)
    one_sided: dict = field(default_factory=dict)
    steps: dict = field(default_factory=dict)

    def most_sensitive(self, row, n=SHOWN):
        """The `n` parameters `row` depends on most (None: all): [(parameter, elasticity)],
        largest magnitude first, leaving out the negligible ones."""
        ranked = sorted(((p, e) for p, e in self.elasticity.get(row, {}).items()
                         if not math.isnan(e) and abs(e) >= NEGLIGIBLE), key=lambda pe: (-abs(pe[1]), pe[0]))
        return ranked[:n]

    def rests_on(self, row, n=SHOWN):
        """The assumptions among the parameters `row` depends on, most influential first:
        the unsourced values a difference in that row may hang on."""
        return [(p, e) for p, e in self.most_sensitive(row, n=None) if p in self.assumptions][:n]

    def describe(self, row):
        """One line for the table: "dma.host_read_latency_ns +0.62, core.clock_mhz -0.31",
        then the assumptions it rests on."""
        top = self.most_sensitive(row)
        line = ", ".join(f"{p} {e:+.2f}" for p, e in top) if top else "none above 0.01"
        resting = self.rests_on(row)
        return line + ("; rests on assumption: " + ", ".join(p for p, _ in resting) if resting else "")

    def table(self):
        """Rows against their most influential parameters, and what was skipped."""
        lines = [f"sensitivity of the {self.system} validation: each parameter moved by ±{self.step:.0%}"]
        width = max((len(r) for r in self.elasticity), default=0)
        for row in self.elasticity:
            lines.append(f"  {row.ljust(width)}  {self.describe(row)}")
        for p, why in self.skipped.items():
            lines.append(f"  skipped {p}: {why}")
        for p, why in self.one_sided.items():
            lines.append(f"  one side only for {p}: {why}")
        return "\n".join(lines) + "\n"

    def to_dict(self):
        return {"step": self.step,
                "elasticity": {row: {p: (None if math.isnan(e) else e) for p, e in per.items()}
                               for row, per in self.elasticity.items()},
                "most_sensitive": {row: [dict(parameter=p, elasticity=e) for p, e in self.most_sensitive(row)]
                                   for row in self.elasticity},
                "rests_on": {row: [dict(parameter=p, elasticity=e) for p, e in self.rests_on(row)]
                             for row in self.elasticity},
                "assumptions": sorted(self.assumptions),
                "skipped": dict(self.skipped),
                "one_sided": dict(self.one_sided),
                "steps": {p: list(v) for p, v in self.steps.items()}}


def _elasticity(low, base, high, p_low, p_base, p_high):
    """Central difference; with `low` or `high` None, the one-sided one of the other."""
    if low is None:
        low, p_low = base, p_base
    if high is None:
        high, p_high = base, p_base
    if not all(map(math.isfinite, (low, base, high))) or base == 0:
        return float("nan")
    return ((high - low) / base) / ((p_high - p_low) / p_base)


def sensitivity(system="seastar", params=None, step=STEP, baseline=None, workers=None, scheduler=None, progress=None):
    """The ``Sensitivity`` of `system`'s validation to `params` (default: every numeric
    preset parameter that is not 0). `baseline`: a ``Validation`` already run (else one is
    run). The 2 x len(params) validations go to `workers` local processes or a Dask
    `scheduler`; ``progress(done, total, text)`` is called as they finish. Attaches the
    result to the returned baseline's ``sensitivity``; returns (baseline, sensitivity)."""
    if not 0 < step < 1:
        raise NiclabError(f"sensitivity: step must be between 0 and 1 (got {step})")
    known = parameters(system)
    if params is None:
        params = [k for k, v in known.items() if v != 0]
    unknown = [p for p in params if p not in known]
    if unknown:
        raise NiclabError(f"sensitivity: {', '.join(unknown)}: not a numeric parameter of the {_preset_of(system)} preset "
                          f"(there are: {', '.join(known)})")
    base = baseline if baseline is not None else validate(system)
    result = Sensitivity(system, step, assumptions=assumptions(system) & set(params))
    for p in params:
        if known[p] == 0:
            result.skipped[p] = "it is 0: a relative step moves nothing"
    todo = [p for p in params if p not in result.skipped]
    jobs = {}
    with _executing(workers, scheduler) as (submit, completed):  # stopped early: its workers are stopped too
        for p in todo:
            low, high = _moved(known[p], 1 - step), _moved(known[p], 1 + step)
            result.steps[p] = (low, known[p], high)
            jobs[submit(_simulated, system, {p: low})] = (p, "low")
            jobs[submit(_simulated, system, {p: high})] = (p, "high")
        runs = {}
        for k, future in enumerate(completed(list(jobs))):
            p, side = jobs[future]
            runs[(p, side)] = future.result()
            if progress:
                progress(k + 1, len(jobs), f"{p} {side}")
    base_values = {c.key: c.simulated for c in base.checks}
    for row in base_values:
        result.elasticity[row] = {}
    for p in todo:
        low, high = runs[(p, "low")], runs[(p, "high")]
        if isinstance(low, str) and isinstance(high, str):
            result.skipped[p] = low if low == high else f"{low}; {high}"
            continue
        if isinstance(low, str) or isinstance(high, str):
            result.one_sided[p] = low if isinstance(low, str) else high
        p_low, p_base, p_high = result.steps[p]
        for row, b in base_values.items():
            result.elasticity[row][p] = _elasticity(None if isinstance(low, str) else low[row], b,
                                                    None if isinstance(high, str) else high[row], p_low, p_base, p_high)
    for p in result.skipped:
        result.steps.pop(p, None)
    base.sensitivity = result
    return base, result
