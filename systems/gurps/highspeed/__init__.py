"""Basic Set: High-Speed Movement, and the house rules' High Speed Movement beside it (``house_`` modules)."""
