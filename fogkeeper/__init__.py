"""fogkeeper: a FOG control program run from its ordinance."""
