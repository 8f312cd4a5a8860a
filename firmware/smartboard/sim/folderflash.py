# The flash of the simulated board on a serial line (serial_main): a
# folder of the PC's, whose free space is what a Raspberry Pi Pico's
# filesystem would have left after its files, not the PC's disk (STATUS
# free=, the storage warnings). Its own module, imported by serial_main's
# start-up only: the in-process fuzz at 96 wK loads serial_main's SimLink
# and has no room for what it does not use.
from apixagon.compat import const

from ..logstore.flash import Flash

# MicroPython 1.28's rp2 port, RPI_PICO: MICROPY_HW_FLASH_STORAGE_BYTES
PICO_FS_BYTES = const(1408 * 1024)


class FolderFlash(Flash):
    def free(self, d):
        used = 0
        for name, folder, size in self.ilistdir(d):
            if not folder:
                used += size if size >= 0 else self.size(d + "/" + name.decode())
        return max(PICO_FS_BYTES - used, 0)
