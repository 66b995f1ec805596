"""The Pool menu: build, freeze, edit by hand, compare versions, export."""
