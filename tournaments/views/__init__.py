"""Tournament pages: setup and registration (setup), rounds and the dashboard (rounds),
public pages and the projector (public), printables, downloads and the archive import
(outputs). Each view parses input, calls one service or selector, and renders."""
