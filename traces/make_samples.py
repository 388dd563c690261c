"""Regenerate the sample traces in this directory from the trace_demo firmware.

    .venv/bin/python traces/make_samples.py

Copies build/firmware/examples/trace_demo.elf here (the traces are only decodable
with the very build that recorded them: its build id is in each trace's header),
then records:

  trace_demo_node0.trace      node 0 of a one-node SeaStar system after 40 us
  trace_demo_node0.txt        `niclab tracedump trace_demo_node0.trace --elf trace_demo.elf`
  trace_demo_2n_node0.trace   both nodes of a two-node system after 40 us (the
  trace_demo_2n_node1.trace   firmware's event script is seeded with the node id)
  trace_demo_wrapped.trace    node 0 after 700 us: the 1024-record ring has wrapped
"""

import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "python"))

import niclab  # noqa: E402

elf = HERE / "trace_demo.elf"
shutil.copyfile(niclab.firmware_path("trace_demo"), elf)

nic = niclab.Nic("seastar", firmware=elf)
nic.run(until_us=40)
t = nic.trace()
t.save(HERE / "trace_demo_node0.trace")
(HERE / "trace_demo_node0.txt").write_text(str(niclab.read_trace(HERE / "trace_demo_node0.trace", elf)))

two = niclab.System({"preset": "seastar", "nodes": 2, "firmware": str(elf)})
two.run(until_us=40)
for i in range(2):
    two.nic(i).trace().save(HERE / f"trace_demo_2n_node{i}.trace")

nic.run(until_us=700)
w = nic.trace()
assert w.lost > 0, "the ring did not wrap"
w.save(HERE / "trace_demo_wrapped.trace")
print(f"wrote samples: {len(t)} records; wrapped: {len(w)} records, {w.lost} lost")
