"""The machinery every GURPS section shares: movers and their limits (``movers``, ``dive``), the spatial
index (``spatial``) and the hexes a figure fills (``figure``), what climbing costs (``climbing``), collision
damage (``impact``), the changes of movement state (``transitions``), and the end of the turn (``cleanup``)."""
