# Simulated twin of the buttons: a mask the simulator or a test sets.


class SimButtons:
    def __init__(self):
        self.mask = 0

    def read(self):
        return self.mask
