"""Hardware drivers, each wrapping a bus or platform object the start-up
code passes in, so no driver looks at which platform it runs on."""
