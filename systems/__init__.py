"""The rules as ordered esper systems: one package per rule set (``systems.gurps``, ``systems.spelljammer``)."""
