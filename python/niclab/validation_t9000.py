"""Validation of the T9000 (seed 003 Part 1 §2, Part 3 §6.2, §8): every published result
with an experiment in ``cpp/src/systems/t9000/published.json`` is run as its entry says
(experiment, options, topology, nodes, and ``set``: preset overrides such as
``{"t9000.links": 4}``) and its column read off the result: a fitted parameter (Comms2's
r_inf, n_1/2, t0) or the row of the entry's one size. An entry with ``relative_to`` is
compared with the same experiment run as ``relative_to`` says (another topology or other
overrides): as a gain in percent, or with ``"relative": "ratio"`` as a ratio.

The preset is the 20 MHz T9000 (``t9000-20``) unless an entry names another; its VCP cycle costs are assumptions from
the design claim of full link throughput above 30 MHz, never from these results."""

from .experiments import run
from .validation import begin, check, merged_set


# Columns computed from a result's own: messages per second of a stream (kHz).
_DERIVED = {"rate_khz": lambda r: 1000.0 / float(r["time_us"][-1])}


def _value(result, column):
    if column in _DERIVED:
        return _DERIVED[column](result)
    if column in result.fit:
        return float(result.fit[column])
    return float(result[column][-1])


def _relative(run_entry, e, value):
    """An entry with ``relative_to`` (a topology and/or overrides in place of the
    entry's): its value over the same experiment run that way, in percent or as a ratio."""
    rel = e["relative_to"]
    other = run_entry(e["experiment"], e.get("preset", "t9000-20"), e["options"], rel.get("topology", e.get("topology")),
                      e.get("nodes", 2), rel.get("set", e.get("set", {})))
    ratio = value / _value(other, e["column"])
    return ratio if e.get("relative") == "ratio" else 100.0 * (ratio - 1.0)


def validate_t9000(progress=None, overrides=None):
    """Seed 003's T9000 checks on the two-node 20 MHz T9000 (five nodes for the chain of
    five C104s); returns the ``Validation`` table. ``progress(text)`` is called before each
    experiment. One run serves every entry that asks for the same experiment."""
    v, say, pub = begin("t9000", progress)
    runs = {}

    def run_entry(experiment, preset, options, topology, nodes, own):
        # One run serves every entry that asks for the same one.
        spec_key = repr((experiment, preset, sorted(options.items()), topology, nodes, sorted(own.items())))
        if spec_key not in runs:
            say(f"{experiment} {options} on {preset} {own or ''}, {topology or 'the default topology'}")
            r = run(experiment, preset=preset, nodes=nodes, topology=topology, set=merged_set(own, overrides), **options)
            r.label = f"t9000 {experiment} {options.get('transport', '')} {topology or ''} {own or ''}".rstrip()
            runs[spec_key] = r
        return runs[spec_key]

    for key, e in pub.items():
        if "experiment" not in e:
            continue
        r = run_entry(e["experiment"], e.get("preset", "t9000-20"), e["options"], e.get("topology"), e.get("nodes", 2),
                      e.get("set", {}))
        v.results[key] = r
        value = _value(r, e["column"])
        if "relative_to" in e:
            value = _relative(run_entry, e, value)
        v.checks.append(check(pub, key, value))
    return v
