"""Basic Set: Mounted Combat, with the house rules' Mounts as options of the same systems."""
