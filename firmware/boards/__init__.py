# Pin tables per board revision: data only, no behaviour (KMK style).
