"""niclab: a workbench for research on programmable network interfaces.

Simulated NICs whose embedded RV32IM core runs real firmware, with timing from a
modelled core (clock, caches, memory latencies). Start with ``niclab.Nic(firmware=
"hello")`` or ``niclab.System.from_preset("seastar", nodes=2)``; run experiments with
``niclab.run("pingpong", max_size=4096)`` (a ``Result``; plots in ``niclab.plots``).
"""

from . import _niclab
from ._niclab import preset_names
from . import portals, sdk, startx
from .errors import (BootTimeout, CaptureError, ConfigError, DriverError, DsnicError, EmptyQueueError, ExperimentError,
                     ExperimentFault, FirmwareBuildError, FirmwareFault, FirmwareImageError, FirmwareNotFound, FitError, GdbServerError, GrimDeliveryError,
                     GrimMemoryError, GrimMulticastError,
                     GrimSocketError, HostResourceError,
                     MessageFormatError, NiclabError,
                     PortalsError, QueueOverflowError, RdmaError, ResultError, StartxError, SystemBusy, TraceBuildIdMismatch,
                     TraceError, TraceFormatError, UnknownPriorityError)
from . import capture, experiments, fits
from .experiments import Result, list_experiments, parts, run, systems
from .firmware import firmware_path
from .nic import Nic
from .sweep import Sweep, sweep
from .system import System
from .trace import Trace, read_trace

__all__ = [
    "BootTimeout", "CaptureError", "ConfigError", "ExperimentError", "ExperimentFault", "FirmwareBuildError", "FirmwareFault", "FirmwareImageError",
    "FirmwareNotFound", "FitError", "NiclabError", "Nic", "PortalsError", "System", "firmware_path", "portals",
    "preset_names", "sdk", "startx", "StartxError", "MessageFormatError", "UnknownPriorityError", "QueueOverflowError",
    "EmptyQueueError", "RdmaError", "DriverError", "DsnicError", "GrimDeliveryError", "GrimMemoryError", "GrimMulticastError", "GrimSocketError",
    "HostResourceError",
    "Result", "ResultError", "Sweep", "capture", "experiments", "fits", "list_experiments", "parts", "run", "sweep", "systems",
    "Trace", "TraceBuildIdMismatch", "TraceError", "TraceFormatError", "read_trace",
]
__version__ = _niclab.__version__  # CMake's project version, compiled into the core
