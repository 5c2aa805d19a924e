"""The set run: several files discovered, checked and joined by the checks across
files, here, in worker processes or on a Dask cluster (runner, cluster, facts, robots)."""
