"""The settings: each declared once (declared), read from the command line, the API
and configuration files (config, parsing), and what a run reports (options, profiles,
selection)."""
