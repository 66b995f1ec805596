"""The project: creating, opening, importing into it, and the window's shortcuts list."""
