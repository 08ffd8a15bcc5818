"""Live clinics: an instructor runs rounds on a projector, a room answers on its phones, the
engine rules."""
