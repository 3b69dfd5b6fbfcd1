"""The rules as ordered esper systems: one package per rule set (``esper_motion.systems.gurps``,
``esper_motion.systems.spelljammer``)."""
