# Hardware drivers: each wraps a bus or platform object passed in by the
# board's start-up code, so no driver looks at which platform it runs on.
