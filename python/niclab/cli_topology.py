"""The command line's --topology: the network a run builds, as a system spec's
"topology" object (an unknown kind's error lists the kinds; README, "A cluster").

Written either as that object in JSON, or shorter as ``KIND[:KEY=VALUE...]``, where a
value ``27x16x24`` is a list of whole numbers and any other is JSON (or text). Red
Storm's machine, a 27 x 16 x 24 mesh closed into a torus in z:

    --topology 'mesh:dims=27x16x24:wrap=[false,false,true]'

The core reads the form (net/topology_text.hpp, shared with the GUI's topology field),
checks the keys and values and names the one that is wrong (``topology.dims``)."""

import argparse

from . import _niclab
from .errors import ConfigError


def parse_topology(text):
    """The topology object of a --topology argument (argparse's type; the core reads
    the form, net/topology_text.hpp, as the GUI's topology field does)."""
    try:
        return _niclab.topology_from_text(text)
    except ConfigError as e:
        raise argparse.ArgumentTypeError(str(e).removeprefix("topology: ")) from None


def topology_text(spec):
    """A topology object written as --topology takes it (the short form where it has one)."""
    return _niclab.topology_text(spec)
