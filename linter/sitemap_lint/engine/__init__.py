"""The engine: one file's entries handed to the enabled checks and the schema, and
their findings through the one sink (checker, dispatch, sink, results, collector)."""
