"""A single simulated NIC, for firmware work: load, reload, run, peek and poke."""

from .system import System
from .firmware import resolve


class Nic:
    """One NIC (a one-node System) of preset `preset`.

    ``Nic(firmware="hello")`` boots it immediately; parameter overrides go in
    `set` (e.g. ``set={"core.clock_mhz": 400}``). Attribute access falls through to
    the underlying C++ NIC: ``console``, ``pc``, ``registers``, ``cycles``,
    ``instret``, ``icache``, ``dcache``, ``peek32``, ``poke32``, ``read_sram``,
    ``write_sram``, ``open_host_window``, ``symbol``, ``where``, ``state``, ...
    """

    def __init__(self, preset="seastar", firmware=None, *, set=None, seed=0):
        self.system = System({"preset": preset, "nodes": 1, "seed": seed, "set": set or {}})
        self._nic = self.system.nic(0)
        self.boot = None
        if firmware is not None:
            self.load_firmware(firmware)

    def load_firmware(self, path):
        """Hold the core in reset, write the image, release it and wait for its running flag.

        `path` is an ELF path or an example name. Returns the boot report (dict:
        boot_us, instructions, ...). Raises FirmwareImageError, FirmwareFault or
        BootTimeout.
        """
        self.boot = self._nic.load_firmware(str(resolve(path)))
        return self.boot

    def reload_firmware(self, path):
        """Load `path` into the running NIC again (same flow as load_firmware)."""
        self.boot = self._nic.reload_firmware(str(resolve(path)))
        return self.boot

    @property
    def host_memory(self):
        """This node's host memory."""
        return self.system.host_memory(0)

    def run(self, until_us=None, *, for_us=None, observer=None, interval_us=100.0):
        """Run (see System.run); raises FirmwareFault if this NIC faulted during the run."""
        result = self.system.run(until_us, for_us=for_us, observer=observer, interval_us=interval_us)
        if 0 in result["faulted_nodes"]:
            raise self._nic.fault
        return result

    @property
    def now_us(self):
        """Simulated time, microseconds."""
        return self.system.now_us

    def __getattr__(self, name):
        return getattr(self._nic, name)

    def __repr__(self):
        return f"<niclab.Nic node {self._nic.node_id} {self._nic.state} firmware={self._nic.firmware}>"
