"""`niclab run --topology`: the network a run builds, written as the spec's topology object
or shorter as KIND:KEY=VALUE..., run as a user would."""

import argparse
import json
import subprocess
import sys

import pytest

import niclab
from niclab.cli_topology import parse_topology, topology_text

RED_STORM = "mesh:dims=27x16x24:wrap=[false,false,true]"


def _niclab(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "niclab", *args], capture_output=True, text=True, timeout=300, cwd=cwd)


def test_short_form_reads_dims_as_numbers_and_other_values_as_json():
    assert parse_topology(RED_STORM) == {"kind": "mesh", "dims": [27, 16, 24], "wrap": [False, False, True]}
    assert parse_topology("torus") == {"kind": "torus"}
    assert parse_topology("fat_tree:leaves=4:nodes_per_leaf=8:spines=2") == {
        "kind": "fat_tree", "leaves": 4, "nodes_per_leaf": 8, "spines": 2}
    assert parse_topology(' {"kind": "torus", "dims": [2, 2, 2]} ') == {"kind": "torus", "dims": [2, 2, 2]}


@pytest.mark.parametrize("text, says", [
    ("", "KIND[:KEY=VALUE...]"),
    (":dims=2x2x2", "KIND[:KEY=VALUE...]"),
    ("torus:dims", "got 'dims'"),
    ("torus:=4", "got '=4'"),
    ("{kind: torus}", "not a JSON object"),
])
def test_a_malformed_argument_says_what_is_wanted(text, says):
    with pytest.raises(argparse.ArgumentTypeError) as e:
        parse_topology(text)
    assert says in str(e.value)


def test_the_written_form_reads_back_as_the_same_object():
    for text in (RED_STORM, "torus:dims=4x4x4", "fat_tree:leaves=4:nodes_per_leaf=8:spines=2", "crossbar"):
        spec = parse_topology(text)
        assert topology_text(spec) == text
        assert parse_topology(topology_text(spec)) == spec


def test_run_builds_the_topology_named_and_says_so(tmp_path):
    r = _niclab("run", "halo3d", "--nodes", "8", "--topology", "mesh:dims=2x2x2:wrap=[false,false,true]",
                "--option", "iterations=2", "--out", "h.json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "on mesh:dims=2x2x2:wrap=[false,false,true]" in r.stdout.splitlines()[0]
    saved = niclab.Result.load(tmp_path / "h.json")
    topology = {"kind": "mesh", "dims": [2, 2, 2], "wrap": [False, False, True]}
    assert saved.system["topology"] == topology
    # The same run from Python gives the same rows, and other rows than a line (where the
    # faces cross other routers).
    same = niclab.run("halo3d", nodes=8, topology=topology, iterations=2)
    assert saved.rows.tolist() == same.rows.tolist()
    line = {"kind": "mesh", "dims": [8, 1, 1]}
    assert niclab.run("halo3d", nodes=8, topology=line, iterations=2).rows.tolist() != same.rows.tolist()


def test_a_run_naming_no_network_records_and_says_the_one_it_ran_on(tmp_path):
    # The SeaStar's own past a pair: the most cube-like mesh of its nodes; a pair's cable.
    r = _niclab("run", "halo3d", "--nodes", "12", "--option", "iterations=1", "--out", "h.json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "on mesh:dims=2x2x3" in r.stdout.splitlines()[0]
    assert niclab.Result.load(tmp_path / "h.json").system["topology"] == {"kind": "mesh", "dims": [2, 2, 3]}
    assert "topology" not in niclab.run("pingpong", sizes=[8]).system


def test_a_sweep_over_nodes_names_each_points_network(tmp_path):
    r = _niclab("sweep", "halo3d", "--grid", "nodes=8,12", "--option", "iterations=1", "--no-cache", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    heads = [line for line in r.stdout.splitlines() if line.startswith("## ")]
    assert heads == ["## nodes=8, on mesh:dims=2x2x2", "## nodes=12, on mesh:dims=2x2x3"]


def test_a_topology_the_core_refuses_exits_1_naming_the_key():
    r = _niclab("run", "halo3d", "--nodes", "8", "--topology", "torus:dims=2x2", "--option", "iterations=1")
    assert r.returncode == 1
    assert "topology.dims" in r.stderr and "three sizes" in r.stderr
    r = _niclab("run", "halo3d", "--nodes", "4", "--topology", "torus:dims=2x2x2", "--option", "iterations=1")
    assert r.returncode == 1 and "connects 8 nodes but the system has 4" in r.stderr
    r = _niclab("run", "halo3d", "--nodes", "8", "--topology", "torus:dims")
    assert r.returncode == 2 and "--topology" in r.stderr and "KEY=VALUE" in r.stderr


def test_a_mesh_routes_by_its_coordinates_unless_it_asks_for_the_table_and_both_run_alike(tmp_path):
    # The same dimension-order routes either way: the table only costs memory and build time.
    tabled = parse_topology("torus:dims=2x2x2:routing=table")
    assert tabled == {"kind": "torus", "dims": [2, 2, 2], "routing": "table"}
    assert topology_text(tabled) == "torus:dims=2x2x2:routing=table"
    computed = niclab.run("halo3d", nodes=8, topology={"kind": "torus", "dims": [2, 2, 2]}, iterations=2)
    table = niclab.run("halo3d", nodes=8, topology=tabled, iterations=2)
    assert table.rows.tolist() == computed.rows.tolist()
    assert table.system["topology"]["routing"] == "table"
    r = _niclab("run", "halo3d", "--nodes", "8", "--topology", "torus:dims=2x2x2:routing=adaptive",
                "--option", "iterations=1", cwd=tmp_path)
    assert r.returncode == 1
    assert "topology.routing" in r.stderr and '"computed"' in r.stderr and '"table"' in r.stderr
