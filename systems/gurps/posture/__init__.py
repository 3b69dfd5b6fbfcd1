"""Basic Set: the optional rule Changing Posture in Armor."""
