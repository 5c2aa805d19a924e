"""Pure analysis used by the rules: functions that take values and return verdicts.

Nothing here reports: no ``Finding``, no ``Rule``. The rules call these functions and
turn what they return into findings with their own codes and messages.
"""
