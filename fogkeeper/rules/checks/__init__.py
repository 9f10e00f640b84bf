"""One module per area of the ordinance; each exposes `check(ctx)`."""

from . import (
    devices,
    discharge,
    enforcement,
    incidents,
    inspections,
    observations,
    permits,
    training,
    waste,
)

OPERATIONAL = (permits, devices, waste, training, inspections, observations, discharge, incidents)

__all__ = ["OPERATIONAL", "enforcement"]
