"""Basic Set: Flying Combat, and the house rules' Flying Movement and Combat beside it (``house_`` modules)."""
