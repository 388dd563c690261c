"""scripts/bench_table.py: the speed figures' table, read from the benchmarks' own output."""

import importlib.util
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("bench_table", ROOT / "scripts" / "bench_table.py")
bench_table = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench_table)

# bench_scale's output as it prints it (two sizes).
SCALE_OUTPUT = """\
3-D halo of 1024-byte Portals puts, 10 iterations, C Portals firmware on every SeaStar, malloc on huge pages
   nodes      shape  build s  setup s   halo s  peak RSS MB  MB/node    events/s  messages/s         sim us events/msg  runs/msg  instr/msg   held n/nb/e % private %   maps
      64      4x4x4     0.03     0.00     0.29           20     0.32    7.57e+05     9.9e+03     320.370000         79        77       1953        31/57/12         5     82
     512      8x8x8     0.35     0.04     3.18          110     0.21    6.61e+05     8.45e+03    355.210000         78        75       1749        33/47/21         4    199
"""


def test_bench_scale_rows_are_read_by_column():
    rows = bench_table.parse_scale(SCALE_OUTPUT)
    assert sorted(rows) == [64, 512]
    assert rows[512]["halo_s"] == pytest.approx(3.18)
    assert rows[512]["mb_per_node"] == pytest.approx(0.21)
    assert rows[512]["messages_per_s"] == pytest.approx(8450.0)
    assert rows[64]["rss_mb"] == pytest.approx(20.0)


def test_output_without_a_table_is_an_error():
    with pytest.raises(bench_table.BenchError, match="no table"):
        bench_table.parse_scale("bench_scale: something went wrong\n")
    with pytest.raises(bench_table.BenchError, match="columns"):
        bench_table.parse_scale(SCALE_OUTPUT.splitlines()[1] + "\n  64  4x4x4  0.03\n")


def test_a_figure_is_judged_by_its_median():
    f = bench_table.Figure("sweep", "s", "<= 1 s", lambda v: v <= 1.0)
    f.runs = [1.4, 0.9, 0.95]
    assert f.median() == pytest.approx(0.95)
    assert f.status() == "met"
    f.runs += [1.6, 1.5]
    assert f.status() == "not met"  # median 1.4
    assert "| 1.40, 0.90, 0.95, 1.60, 1.50 | **1.40 s** |" in f.row()


def test_growth_compares_the_largest_size_with_the_smallest():
    per_message = {n: bench_table.Figure(f"{n}", "us") for n in (64, 512, 2048)}
    per_message[64].runs = [100.0, 102.0, 98.0]
    per_message[512].runs = [118.0]
    per_message[2048].runs = [182.0, 180.0, 190.0]
    g = bench_table.growth(per_message)
    assert g.runs == [pytest.approx(1.82)]
    assert g.status() == "not met"
    per_message[2048].runs = [105.0]
    assert bench_table.growth(per_message).status() == "met"


def test_a_real_halo_round_gives_the_scale_rows(capsys):
    build = ROOT / "build"
    assert (build / "cpp" / "bench" / "bench_scale").is_file(), "`make build` builds the benchmarks"
    bench_table.main(["--build-dir", str(build), "--only", "scale", "--nodes", "8,27", "--iterations", "2",
                      "--rounds", "1", "--scale-rounds", "1"])
    out = capsys.readouterr().out
    rows = {line.split("|")[1].strip(): line for line in out.splitlines() if line.startswith("| ") and "figure" not in line}
    assert "halo at 8 nodes: host time a message" in rows
    assert "halo at 27 nodes: host time a message" in rows
    median_us = float(rows["halo at 27 nodes: host time a message"].split("**")[1].split()[0].replace(",", ""))
    assert 1.0 < median_us < 10_000.0  # host microseconds a message, from messages/s
    assert "memory per node (`bench_scale`, 27 nodes)" in rows
    growth = [line for name, line in rows.items() if name.startswith("growth")]
    assert len(growth) == 1 and growth[0].count("|") == 6
    assert "bench_iss" not in out  # --only scale


@pytest.mark.parametrize("args, named", [(["--only", "rt,nonsense"], "nonsense"), (["--nodes", "64,many"], "64,many"),
                                          (["--nodes", "0"], "'0'"), (["--rounds", "-1"], "-1")])
def test_bad_options_are_refused_by_name(args, named, capsys):
    with pytest.raises(SystemExit) as e:
        bench_table.main(args)
    assert e.value.code == 2  # argparse's usage error, before anything runs
    assert named in capsys.readouterr().err
