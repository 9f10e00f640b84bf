"""The staff pages of the registry: the establishments and what is around them (operators,
parcels and owners, laterals and sewer segments) in `sites`, their equipment and people
(devices, food grinders, haulers and contracts, employees) in `equipment`."""
