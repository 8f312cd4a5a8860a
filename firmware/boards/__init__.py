"""The start-up code, the layout as frozen data and, per revision, the pin
table: the one place that knows the platform."""
